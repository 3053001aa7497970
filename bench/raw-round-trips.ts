import { BatchGetCommand, BatchWriteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { itemDoesNotExist } from '../shared/store/conditions.ts';
import { keys } from '../shared/store/keys.ts';
import { tableDefinition } from '../shared/store/table-definition.ts';
import type { CallCount } from '../shared/observability/call-counter.ts';
import { summariseLatencies, type LatencyStats } from './latency-stats.ts';

/** The raw call kinds; each counted DynamoDB command is held to the one of its kind (RAW_KIND_OF). */
export type RawKind = 'GetItem' | 'PutItem' | 'UpdateItem' | 'Query' | 'BatchGetItem' | 'TransactWriteItems';

/** A raw call of one kind and size: the items a transaction writes, the keys a batch reads, the entries a Query reads. */
export interface RawOperation {
  kind: RawKind;
  items: number;
}

/**
 * The raw kind each counted command is held to. A read or write is compared with one of its own kind and size,
 * never a Query or a batch with a GetItem: their cost grows with the items they touch.
 */
const RAW_KIND_OF: Record<string, RawKind> = {
  GetItem: 'GetItem',
  PutItem: 'PutItem',
  DeleteItem: 'PutItem',
  UpdateItem: 'UpdateItem',
  Query: 'Query',
  Scan: 'Query',
  BatchGetItem: 'BatchGetItem',
  TransactGetItems: 'BatchGetItem',
  TransactWriteItems: 'TransactWriteItems',
};

/** Kinds whose size is always one item. */
const SINGLE_ITEM: readonly RawKind[] = ['GetItem', 'PutItem', 'UpdateItem'];
/** DynamoDB's most keys per BatchGetItem, and so the most a raw batch needs. */
const BATCH_GET_MAX_KEYS = 100;

/** "Query of 500", "TransactWriteItems of 4", "GetItem". */
export const rawOperationName = ({ kind, items }: RawOperation) => (SINGLE_ITEM.includes(kind) ? kind : `${kind} of ${items}`);

/**
 * The raw operation a counted call is held to, or undefined for calls with none (KMS, SQS, Scheduler, Lambda).
 * Its size is the route's items per call of that command, rounded (a charge's two transactions of 2 and 4 items: 3).
 */
export function rawOperationOf(call: CallCount): RawOperation | undefined {
  const kind = call.service === 'DynamoDB' ? RAW_KIND_OF[call.command] : undefined;
  if (!kind) return undefined;
  return { kind, items: SINGLE_ITEM.includes(kind) ? 1 : Math.round(call.itemsPerCall ?? 1) };
}

/** Each raw operation after a route runs this share of the route's duration (three kinds take as long as the route). */
export const RAW_SHARE_OF_ROUTE = 1 / 3;

/** Latency of each raw operation measured, by rawOperationName. */
export type RawRoundTrips = Record<string, LatencyStats>;

export interface RawRoundTripOptions {
  connections: number;
  /** Of each operation's loop. */
  durationSeconds: number;
  warmupShare: number;
}

/**
 * Raw DynamoDB calls of any kind and size, through the sandbox's own client (same connections, same SDK work),
 * on items shaped like the service's: `sessionItem` is a real session. Query partitions and batch keys are
 * seeded on first use and kept for the run.
 */
export function rawRoundTrips(db: DynamoDBDocumentClient, tableName: string, sessionItem: Record<string, unknown>) {
  const run = randomUUID();
  let sequence = 0;
  const fresh = () => `BENCH#raw-${run}-${sequence++}`;
  const sessionLike = (gsi1pk = `BENCH#RAW#${run}`) => ({ ...sessionItem, pk: fresh(), gsi1pk, gsi1sk: `${sessionItem.createdAt}#${sequence}` });
  const eventLike = () => ({ ...keys.event(fresh()), type: 'event', body: 'x'.repeat(300) });
  const partitions = new Map<number, Promise<{ partition: string; itemKeys: Record<string, unknown>[] }>>();

  /** A gsi1 partition of `entries` session items, like a merchant's sessions (seeded once per size). */
  const partitionOf = (entries: number) => {
    let seeded = partitions.get(entries);
    if (!seeded) {
      const partition = `BENCH#RAWQ#${run}#${entries}`;
      const items = Array.from({ length: entries }, () => sessionLike(partition));
      seeded = (async () => {
        for (let i = 0; i < items.length; i += 25) {
          const chunk = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
          await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: chunk } }));
        }
        return { partition, itemKeys: items.map(({ pk }) => ({ pk, sk: sessionItem.sk })) };
      })();
      partitions.set(entries, seeded);
    }
    return seeded;
  };

  const counter = { pk: `BENCH#RAWCOUNT#${run}`, sk: 'count' };
  const counterTtl = Math.floor(Date.now() / 1000) + 86_400;
  const callOf = async ({ kind, items }: RawOperation): Promise<() => Promise<unknown>> => {
    switch (kind) {
      case 'GetItem':
        return () => db.send(new GetCommand({ TableName: tableName, Key: { pk: sessionItem.pk, sk: sessionItem.sk }, ConsistentRead: true }));
      case 'PutItem':
        return () => db.send(new PutCommand({ TableName: tableName, Item: sessionLike(), ConditionExpression: itemDoesNotExist }));
      // The rate limit's shape: a conditional counter on one item that every concurrent request updates.
      case 'UpdateItem':
        return () =>
          db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: counter,
              UpdateExpression: 'ADD #count :one SET #ttl = :ttl',
              ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
              ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
              ExpressionAttributeValues: { ':one': 1, ':max': Number.MAX_SAFE_INTEGER, ':ttl': counterTtl },
            }),
          );
      // Keys only: no route reads less than that from an index, so the raw Query is never the heavier one.
      case 'Query': {
        const { partition } = await partitionOf(items);
        return () =>
          db.send(
            new QueryCommand({
              TableName: tableName,
              IndexName: tableDefinition.gsi1.name,
              KeyConditionExpression: 'gsi1pk = :p',
              ExpressionAttributeValues: { ':p': partition },
              ProjectionExpression: 'pk, sk',
              ScanIndexForward: false,
            }),
          );
      }
      case 'BatchGetItem': {
        const { itemKeys } = await partitionOf(BATCH_GET_MAX_KEYS);
        const Keys = itemKeys.slice(0, Math.min(items, BATCH_GET_MAX_KEYS));
        return () => db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys } } }));
      }
      // A change and its events: one session-sized Put, the rest event-sized, all conditional.
      case 'TransactWriteItems':
        return () =>
          db.send(
            new TransactWriteCommand({
              TransactItems: [sessionLike(), ...Array.from({ length: Math.max(0, items - 1) }, eventLike)].map((Item) => ({
                Put: { TableName: tableName, Item, ConditionExpression: itemDoesNotExist },
              })),
            }),
          );
    }
  };

  /** Each operation in turn, for `durationSeconds`, in a closed loop at `connections` concurrency; warm-up dropped. */
  async function measure(operations: RawOperation[], { connections, durationSeconds, warmupShare }: RawRoundTripOptions): Promise<RawRoundTrips> {
    const result: RawRoundTrips = {};
    for (const operation of operations) {
      const name = rawOperationName(operation);
      if (result[name]) continue;
      const call = await callOf(operation);
      const latencies: number[] = [];
      let errors = 0;
      const started = performance.now();
      const deadline = started + durationSeconds * 1000;
      const loop = async () => {
        while (performance.now() < deadline) {
          const t0 = performance.now();
          try {
            await call();
            latencies.push(performance.now() - t0);
          } catch {
            errors += 1;
          }
        }
      };
      await Promise.all(Array.from({ length: connections }, loop));
      result[name] = summariseLatencies(latencies, { warmupShare, elapsedSeconds: (performance.now() - started) / 1000, errors });
    }
    return result;
  }

  return {
    /** The raw operations `calls` are held to, measured one after the other. */
    measureFor: (calls: CallCount[], options: RawRoundTripOptions) => measure(calls.map(rawOperationOf).filter((op) => op !== undefined), options),
  };
}

export interface StorageFloor {
  /** Sum of the p50 of the raw round trips the route needs, in ms. */
  floorMs: number;
  /** e.g. "1× UpdateItem + 1× Query of 500 + 1× BatchGetItem of 10". */
  needs: string;
  /** Calls with no raw baseline (KMS, SQS, Scheduler): left out of the floor, listed here. */
  unmapped: string[];
}

/** The storage floor of a route from its counted calls per request (averages, so conflict retries weigh in). */
export function storageFloor(calls: CallCount[], raw: RawRoundTrips): StorageFloor {
  let floorMs = 0;
  const needs: string[] = [];
  const unmapped: string[] = [];
  for (const call of calls) {
    const operation = rawOperationOf(call);
    const stats = operation && raw[rawOperationName(operation)];
    if (!stats) {
      unmapped.push(`${call.service} ${call.command}`);
      continue;
    }
    floorMs += call.calls * stats.p50;
    const name = rawOperationName(operation);
    needs.push(`${round(call.calls)}× ${operation.kind === call.command ? name : `${call.command} (as ${name})`}`);
  }
  return { floorMs, needs: needs.join(' + '), unmapped };
}

const round = (n: number) => Math.round(n * 100) / 100;
