import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { referenceClaimKey } from '../domain/pago-movil-verification.ts';
import type { Mode } from '../domain/session-state.ts';
import { itemDoesNotExist, named } from './conditions.ts';
import { itemMapper } from './item-mapper.ts';
import { keys } from './keys.ts';
import type { TransactItem } from './session-store.ts';

/** Which bank payment: the merchant, the mode, the payer's bank and the reference the buyer gave. */
export interface ClaimedPayment {
  merchantId: string;
  mode: Mode;
  bankCode: string;
  /** As the buyer typed it; the key ignores leading zeros (referenceClaimKey). */
  reference: string;
}

/** A P2C reference held by one attempt: the bank payment it names pays that session and no other. */
export interface ReferenceClaim extends ClaimedPayment {
  sessionReference: string;
  transactionReference: string;
  claimedAt: string;
}

const keyOf = (p: ClaimedPayment) => keys.pagoMovilClaim(p.mode, referenceClaimKey(p.merchantId, p.bankCode, p.reference));

export const referenceClaimItems = itemMapper({ type: 'pago_movil_claim', keys: (claim: ReferenceClaim) => keyOf(claim) });

/**
 * The reference claims (docs/pago-movil.md, "One bank payment pays one session"). Both writes are transaction items
 * named 'pagoMovilClaim', so they ride on the attempt's own step: the claim is written exactly when the attempt that
 * submitted it is, and released exactly when that attempt ends not found. Of two sessions racing over one reference,
 * one transaction lands and the other fails with TransactionConditionFailedError (failed: 'pagoMovilClaim'), or
 * with a TransactionConflictError that, sent again, becomes that failure. A claim has no TTL: a bank payment stays
 * paid.
 *
 * @example
 * const items = [...deps.charges.stepItems(step), claims.claimItem({ ...payment, sessionReference, transactionReference, claimedAt })];
 * // catch: error instanceof TransactionConditionFailedError && error.failed === 'pagoMovilClaim' → reference_used
 */
export interface PagoMovilClaimStore {
  /** The claim on that payment, or null when it is free (strongly consistent). */
  get(payment: ClaimedPayment): Promise<ReferenceClaim | null>;
  /** Puts the claim; fails when any attempt holds the payment already. */
  claimItem(claim: ReferenceClaim): TransactItem;
  /** Deletes the claim; fails unless `holder` is the session and attempt holding it. */
  releaseItem(payment: ClaimedPayment, holder: Pick<ReferenceClaim, 'sessionReference' | 'transactionReference'>): TransactItem;
}

export function createPagoMovilClaimStore(db: DynamoDBDocumentClient, tableName: string): PagoMovilClaimStore {
  return {
    async get(payment) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keyOf(payment), ConsistentRead: true }));
      return Item ? referenceClaimItems.fromItem(Item) : null;
    },

    claimItem: (claim) => named('pagoMovilClaim', { Put: { TableName: tableName, Item: referenceClaimItems.toItem(claim), ConditionExpression: itemDoesNotExist } }),

    releaseItem: (payment, holder) =>
      named('pagoMovilClaim', {
        Delete: {
          TableName: tableName,
          Key: keyOf(payment),
          ConditionExpression: 'sessionReference = :session AND transactionReference = :transaction',
          ExpressionAttributeValues: { ':session': holder.sessionReference, ':transaction': holder.transactionReference },
        },
      }),
  };
}
