import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Mode } from '../domain/session-state.ts';
import { randomToken } from '../ids.ts';
import { ConditionFailedError, conditional } from './conditions.ts';
import { keys } from './keys.ts';
import type { TransactItem } from './session-store.ts';

/** Keys are kept 24 hours, as the spec says. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3600 * 1000;
/** A claim older than this whose request never finished (the process died) may be taken over. */
export const IDEMPOTENCY_LOCK_MS = 30 * 1000;

/** What a handler commits with its change: the status and the body it answers. */
export interface StoredResponse {
  statusCode: number;
  body: unknown;
}

/** A stored answer as a repeat gets it: the status and the very JSON text first sent, keys in the same order. */
export interface ReplayedResponse {
  statusCode: number;
  json: string;
}

export interface IdempotencyScope {
  merchantId: string;
  mode: Mode;
  /** The operation, e.g. "POST /v1/sessions": a key used on another operation is a different key. */
  operation: string;
  key: string;
}

export type ClaimResult =
  | { kind: 'claimed'; claim: Claim }
  | { kind: 'replay'; response: ReplayedResponse }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

export interface Claim {
  scope: IdempotencyScope;
  claimId: string;
}

/**
 * Idempotency records. A request claims its key before doing anything; the handler then writes its result in the
 * same transaction as its own change (completionItem), so a stored result exists exactly when the change does.
 */
export interface IdempotencyStore {
  claim(scope: IdempotencyScope, fingerprint: string, now: number): Promise<ClaimResult>;
  completionItem(claim: Claim, response: StoredResponse): TransactItem;
  /** Stores the response on its own, for a handler whose change needed no transaction of its own. */
  complete(claim: Claim, response: StoredResponse): Promise<void>;
  /** Gives the key back when the request failed before changing anything, so a retry runs again. */
  release(claim: Claim): Promise<void>;
}

export function createIdempotencyStore(db: DynamoDBDocumentClient, tableName: string): IdempotencyStore {
  const keyOf = (s: IdempotencyScope) => keys.idempotency(s.merchantId, s.mode, s.operation, s.key);
  return {
    async claim(scope, fingerprint, now) {
      const claimId = randomToken(16);
      try {
        await conditional(() =>
          db.send(
            new PutCommand({
              TableName: tableName,
              Item: {
                ...keyOf(scope),
                type: 'idempotency',
                state: 'in_progress',
                claimId,
                fingerprint,
                createdAt: now,
                lockedUntil: now + IDEMPOTENCY_LOCK_MS,
                expiresAt: now + IDEMPOTENCY_RETENTION_MS,
                ttl: Math.ceil((now + IDEMPOTENCY_RETENTION_MS) / 1000),
              },
              // Free, expired (TTL deletes lazily), or an abandoned claim of the very same request.
              ConditionExpression:
                'attribute_not_exists(pk) OR expiresAt <= :now OR (#state = :inProgress AND lockedUntil <= :now AND fingerprint = :fp)',
              ExpressionAttributeNames: { '#state': 'state' },
              ExpressionAttributeValues: { ':now': now, ':inProgress': 'in_progress', ':fp': fingerprint },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          ),
        );
        return { kind: 'claimed', claim: { scope, claimId } };
      } catch (error) {
        if (!(error instanceof ConditionFailedError) || !error.existing) throw error;
        const existing = unmarshallIfRaw(error.existing);
        if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
        if (existing.state === 'completed') return { kind: 'replay', response: replayed(existing.response as StoredAnswer) };
        return { kind: 'in_progress' };
      }
    },

    completionItem(claim, response) {
      return {
        Update: {
          TableName: tableName,
          Key: keyOf(claim.scope),
          UpdateExpression: 'SET #state = :completed, #response = :response',
          ConditionExpression: 'claimId = :claimId',
          ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
          ExpressionAttributeValues: { ':completed': 'completed', ':response': { statusCode: response.statusCode, json: JSON.stringify(response.body) } satisfies StoredAnswer, ':claimId': claim.claimId },
        },
      };
    },

    async complete(claim, response) {
      await conditional(() => db.send(new UpdateCommand(this.completionItem(claim, response).Update!)));
    },

    async release(claim) {
      try {
        await conditional(() =>
          db.send(
            new DeleteCommand({
              TableName: tableName,
              Key: keyOf(claim.scope),
              ConditionExpression: 'claimId = :claimId AND #state = :inProgress',
              ExpressionAttributeNames: { '#state': 'state' },
              ExpressionAttributeValues: { ':claimId': claim.claimId, ':inProgress': 'in_progress' },
            }),
          ),
        );
      } catch (error) {
        // Taken over or completed meanwhile: nothing of ours to give back.
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    },
  };
}

/** ReturnValuesOnConditionCheckFailure comes back in DynamoDB's raw attribute format even through lib-dynamodb. */
function unmarshallIfRaw(item: Record<string, unknown>): Record<string, unknown> {
  const sample = item.pk as unknown;
  if (sample && typeof sample === 'object' && 'S' in (sample as object)) {
    return unmarshallRecord(item);
  }
  return item;
}

const unmarshallRecord = (item: Record<string, unknown>) => unmarshall(item as Parameters<typeof unmarshall>[0]);

/**
 * The `response` attribute: the body as JSON text, since a DynamoDB map keeps no key order and a replay must answer
 * the bytes first sent. Records written before that held the body as a map (`body`); they live at most 24 hours.
 */
type StoredAnswer = { statusCode: number; json: string } | { statusCode: number; json?: undefined; body: unknown };

function replayed(answer: StoredAnswer): ReplayedResponse {
  return { statusCode: answer.statusCode, json: answer.json ?? JSON.stringify((answer as { body: unknown }).body) };
}
