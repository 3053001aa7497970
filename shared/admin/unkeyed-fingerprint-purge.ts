/**
 * The one-off migration of issue 21's finding 1: idempotency records written before request fingerprints of card
 * data were keyed hold an unkeyed SHA-256 of a body with a card number and CVV. This replaces each such fingerprint
 * with a marker at once, rather than waiting up to 24 hours for the record's TTL (and DynamoDB's lag in deleting
 * expired items). A retry with one of those keys then answers 422 idempotency_key_reused (the checkout sends a new
 * key per attempt, and the session's own state refuses a second charge), never a replay of another body.
 * Safe to run while the service runs and to run again.
 */
import { ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { routes, type RouteDefinition } from '../routes.ts';
import { ConditionFailedError, conditional } from '../store/conditions.ts';

export const PURGED_FINGERPRINT = 'purged:unkeyed';

/** Operations whose bodies carry card data, as idempotency records name them ("POST /v1/checkout/charge"). */
const CARD_DATA_OPERATIONS = Object.values(routes as Record<string, RouteDefinition>)
  .filter((route) => route.cardData)
  .map((route) => `${route.method} ${route.path}`);

export interface FingerprintPurgeResult {
  /** Idempotency records of card-data operations read. */
  examined: number;
  /** Unkeyed fingerprints replaced. */
  purged: number;
}

export async function purgeUnkeyedFingerprints(db: DynamoDBDocumentClient, tableName: string): Promise<FingerprintPurgeResult> {
  const result: FingerprintPurgeResult = { examined: 0, purged: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: `begins_with(pk, :idempotency) AND (${CARD_DATA_OPERATIONS.map((_, i) => `contains(pk, :op${i})`).join(' OR ')})`,
        ExpressionAttributeValues: { ':idempotency': 'IDEMPOTENCY#', ...Object.fromEntries(CARD_DATA_OPERATIONS.map((op, i) => [`:op${i}`, `#${op}#`])) },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      result.examined += 1;
      const fingerprint = item.fingerprint as string | undefined;
      if (!fingerprint || fingerprint.startsWith('hmac:') || fingerprint === PURGED_FINGERPRINT) continue;
      try {
        await conditional(() =>
          db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: { pk: item.pk, sk: item.sk },
              UpdateExpression: 'SET fingerprint = :purged',
              // Only the value read: a record claimed anew meanwhile (keyed) is left alone.
              ConditionExpression: 'fingerprint = :old',
              ExpressionAttributeValues: { ':purged': PURGED_FINGERPRINT, ':old': fingerprint },
            }),
          ),
        );
        result.purged += 1;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return result;
}
