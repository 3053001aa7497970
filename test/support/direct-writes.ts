/**
 * Direct writes for states the API cannot reach yet (payments come in a later issue): a session that is
 * completed, failed or has a charge in flight, and stored cards. They go through the sandbox's own DynamoDB
 * client, bump `version` like every real write, and keep the list index (gsi1) in step because it is the same item.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PaymentDeps } from '../../shared/deps.ts';
import type { ClosedReason, SessionStatus } from '../../shared/domain/session-state.ts';
import type { StoredCardSummary } from '../../shared/store/card-store.ts';
import { keys } from '../../shared/store/keys.ts';
import { randomToken } from '../../shared/ids.ts';

export interface SessionStateChange {
  status: SessionStatus;
  closedReason?: ClosedReason | null;
  failureCount?: number;
  attemptCount?: number;
}

/** Puts a session into a state only payments would reach, as a payment handler would: conditional, version bumped. */
export async function forceSessionState(deps: PaymentDeps, reference: string, change: SessionStateChange): Promise<void> {
  const values: Record<string, unknown> = { status: change.status, closedReason: change.closedReason ?? null };
  if (change.failureCount !== undefined) values.failureCount = change.failureCount;
  if (change.attemptCount !== undefined) values.attemptCount = change.attemptCount;
  const names = Object.keys(values);
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.session(reference),
      UpdateExpression: `SET ${names.map((n, i) => `#f${i} = :v${i}`).join(', ')}, version = version + :one`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
      ExpressionAttributeValues: { ...Object.fromEntries(names.map((n, i) => [`:v${i}`, values[n]])), ':one': 1 },
    }),
  );
}

/** A stored card as the card vault will write it (cards are created by approved charges, which come later). */
export async function putStoredCard(
  deps: PaymentDeps,
  card: Pick<StoredCardSummary, 'merchantId' | 'mode'> & Partial<StoredCardSummary>,
): Promise<StoredCardSummary> {
  const stored: StoredCardSummary = {
    svcToken: `tok_svc_${randomToken()}`,
    status: 'active',
    customerRef: null,
    gateway: 'bank_direct',
    brand: 'visa',
    lastFour: '4242',
    holderName: null,
    documentType: null,
    documentId: null,
    ...card,
  };
  await deps.db.send(
    new PutCommand({
      TableName: deps.config.tableName,
      Item: { ...keys.card(stored.svcToken), type: 'card', ...stored },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return stored;
}
