import { GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { itemDoesNotExist } from '../shared/store/conditions.ts';
import { keys } from '../shared/store/keys.ts';
import type { CallCount } from '../shared/observability/call-counter.ts';
import { summariseLatencies, type LatencyStats } from './latency-stats.ts';

export const RAW_OPERATIONS = ['GetItem', 'PutItem', 'TransactWriteItems'] as const;
export type RawOperation = (typeof RAW_OPERATIONS)[number];

/**
 * The raw round trip each counted DynamoDB command is held to. Reads of any shape are held to one GetItem,
 * single-item writes to one PutItem and transactions to the two-item TransactWriteItems. Query and BatchGetItem
 * therefore count as one GetItem each, although a Query over a large index partition reads far more: the
 * ratio then shows that cost instead of hiding it behind a baseline of its own.
 */
export const RAW_BASELINE_OF: Record<string, RawOperation> = {
  GetItem: 'GetItem',
  Query: 'GetItem',
  BatchGetItem: 'GetItem',
  TransactGetItems: 'GetItem',
  PutItem: 'PutItem',
  UpdateItem: 'PutItem',
  DeleteItem: 'PutItem',
  TransactWriteItems: 'TransactWriteItems',
};

export type RawRoundTrips = Record<RawOperation, LatencyStats>;

/**
 * Each raw operation in turn, for `durationSeconds` each, in a closed loop at the routes' concurrency, through
 * the sandbox's own client (createDocumentClient), on items the size of a real session.
 */
export async function measureRawRoundTrips(
  db: DynamoDBDocumentClient,
  tableName: string,
  sessionItem: Record<string, unknown>,
  { connections, durationSeconds, warmupShare }: { connections: number; durationSeconds: number; warmupShare: number },
): Promise<RawRoundTrips> {
  const run = randomUUID();
  let sequence = 0;
  const fresh = () => `BENCH#raw-${run}-${sequence++}`;
  const sessionLike = () => ({ ...sessionItem, pk: fresh(), gsi1pk: 'BENCH#RAW', gsi1sk: String(sequence) });
  const roundTrip: Record<RawOperation, () => Promise<unknown>> = {
    GetItem: () => db.send(new GetCommand({ TableName: tableName, Key: { pk: sessionItem.pk, sk: sessionItem.sk } })),
    PutItem: () => db.send(new PutCommand({ TableName: tableName, Item: sessionLike(), ConditionExpression: itemDoesNotExist })),
    // A change and its outbox event: the shape of the service's own transactions.
    TransactWriteItems: () =>
      db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: sessionLike(), ConditionExpression: itemDoesNotExist } },
            { Put: { TableName: tableName, Item: { ...keys.event(fresh()), type: 'event', body: 'x'.repeat(300) }, ConditionExpression: itemDoesNotExist } },
          ],
        }),
      ),
  };

  const result = {} as RawRoundTrips;
  for (const operation of RAW_OPERATIONS) {
    const latencies: number[] = [];
    let errors = 0;
    const started = performance.now();
    const deadline = started + durationSeconds * 1000;
    const loop = async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await roundTrip[operation]();
          latencies.push(performance.now() - t0);
        } catch {
          errors += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: connections }, loop));
    result[operation] = summariseLatencies(latencies, { warmupShare, elapsedSeconds: (performance.now() - started) / 1000, errors });
  }
  return result;
}

export interface StorageFloor {
  /** Sum of the p50 of the raw round trips the route needs, in ms. */
  floorMs: number;
  /** e.g. "TransactWriteItems + GetItem". */
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
    const baseline = call.service === 'DynamoDB' ? RAW_BASELINE_OF[call.command] : undefined;
    if (!baseline) {
      unmapped.push(`${call.service} ${call.command}`);
      continue;
    }
    floorMs += call.calls * raw[baseline].p50;
    needs.push(`${round(call.calls)}× ${call.command}${baseline === call.command ? '' : ` (as ${baseline})`}`);
  }
  return { floorMs, needs: needs.join(' + '), unmapped };
}

const round = (n: number) => Math.round(n * 100) / 100;
