/**
 * The P2C verification rules: what a bank's search of the merchant's received payments means for the attempt, when
 * the service looks again by itself, and the bounds that keep references from being guessed. The service's own rules
 * (the banks publish none of these): documented in docs/pago-movil.md. Pure: no I/O.
 */

/** What the bank's search found, as the connector reports it (the port's IncomingPaymentOutcome). */
export type SearchResult =
  | { kind: 'found'; amountMinor: number; processorReference: string }
  | { kind: 'not_found' }
  | { kind: 'already_claimed' }
  | { kind: 'failed'; code: string; detail: string };

/**
 * When the service searches again after "not found yet" or a bank that could not answer, in seconds after the
 * previous search: a payment can take minutes to show at the merchant's bank. After the last, the attempt ends.
 * About 12 minutes in all, the time a buyer who paid may reasonably wait.
 */
export const P2C_RECHECK_DELAYS_SECONDS = [15, 30, 60, 120, 180, 300] as const;

/** References one session may submit for verification: more is guessing. A re-check is not a submission. */
export const P2C_REFERENCES_PER_SESSION = 3;

/** Payment keys one session may ask the buyer's bank to send (each is an SMS to the buyer). */
export const PAYMENT_KEYS_PER_SESSION = 3;
/** Payment keys one phone may be sent through this service per UTC day, across every merchant. */
export const PAYMENT_KEYS_PER_PHONE_PER_DAY = 5;

/** Our codes for P2C endings (errorCode of the transaction and the charge.* events). */
export const P2C_CODES = {
  NOT_FOUND: 'pago_movil_not_found',
  AMOUNT_DIFFERS: 'pago_movil_amount_differs',
  REFERENCE_USED: 'pago_movil_reference_used',
} as const;

export type P2cDecision =
  | { kind: 'approve'; processorReference: string }
  /** The money arrived, another amount: recorded, not approved; the reference stays this attempt's; the merchant decides. */
  | { kind: 'amount_differs'; amountReceivedMinor: number; processorReference: string }
  | { kind: 'reference_used' }
  /** Search again after this many seconds. */
  | { kind: 'recheck'; afterSeconds: number }
  /** Searched for the whole window: the attempt ends declined. */
  | { kind: 'not_found' };

/**
 * @param searchesDone the searches made for this attempt, this one included.
 * @example
 * decideP2c({ kind: 'not_found' }, 1000, 1) // { kind: 'recheck', afterSeconds: 15 }
 */
export function decideP2c(result: SearchResult, amountAskedMinor: number, searchesDone: number): P2cDecision {
  switch (result.kind) {
    case 'found':
      return result.amountMinor === amountAskedMinor
        ? { kind: 'approve', processorReference: result.processorReference }
        : { kind: 'amount_differs', amountReceivedMinor: result.amountMinor, processorReference: result.processorReference };
    case 'already_claimed':
      return { kind: 'reference_used' };
    default: {
      // Not found yet, or the bank could not say: both are looked at again while the window lasts.
      const afterSeconds = P2C_RECHECK_DELAYS_SECONDS[searchesDone - 1];
      return afterSeconds === undefined ? { kind: 'not_found' } : { kind: 'recheck', afterSeconds };
    }
  }
}

/**
 * The key that makes one bank payment pay one session: the merchant, the payer's bank and the reference as digits
 * without leading zeros (banks answer references as JSON numbers). Held by a conditional write.
 *
 * @example
 * referenceClaimKey('mer_1', '0105', '0084840003380') // 'mer_1#0105#84840003380'
 */
export const referenceClaimKey = (merchantId: string, bankCode: string, reference: string): string => `${merchantId}#${bankCode}#${referenceDigits(reference)}`;

/** A bank's reference as one payment: its digits without leading zeros. */
const referenceDigits = (reference: string): string => reference.replace(/^0+/, '');

/** A payment a buyer points at: their bank and the reference it printed. */
export interface SubmittedReference {
  bankCode: string;
  reference: string;
}

/** Whether two submissions name the same bank payment (the same bank, the same reference, leading zeros aside). */
export const samePayment = (a: SubmittedReference, b: SubmittedReference): boolean => a.bankCode === b.bankCode && referenceDigits(a.reference) === referenceDigits(b.reference);

export type ReferenceSubmission =
  /** A reference this session has not submitted yet, within its bound. */
  | { kind: 'new' }
  /** A reference this session submitted before: looked at again, not counted. */
  | { kind: 'recheck' }
  /** The session has submitted P2C_REFERENCES_PER_SESSION others: more is guessing. */
  | { kind: 'limit_reached'; limit: number };

/**
 * Whether a session may submit another reference, given the ones it submitted before (whatever became of them: a
 * reference used elsewhere or of another amount still counts, since each was a try).
 *
 * @example
 * referenceSubmission([{ bankCode: '0105', reference: '111' }], { bankCode: '0105', reference: '0111' }) // { kind: 'recheck' }
 */
export function referenceSubmission(earlier: readonly SubmittedReference[], next: SubmittedReference): ReferenceSubmission {
  if (earlier.some((submitted) => samePayment(submitted, next))) return { kind: 'recheck' };
  const distinct = earlier.filter((submitted, i) => earlier.findIndex((other) => samePayment(other, submitted)) === i).length;
  return distinct < P2C_REFERENCES_PER_SESSION ? { kind: 'new' } : { kind: 'limit_reached', limit: P2C_REFERENCES_PER_SESSION };
}

/** The trace event of one search of the bank for a P2C attempt: an attempt's searches are counted from its trace. */
export const P2C_SEARCHED = 'pago_movil_searched';

/** The searches a P2C attempt has made, from its trace. */
export const p2cSearches = (trace: readonly { event: string }[]): number => trace.filter((entry) => entry.event === P2C_SEARCHED).length;

/**
 * When a pending P2C attempt is due its next search (epoch ms): its last search plus the delay after it, or at once
 * when it has made none (its request ended before asking). Null when no search is left: the last one decides.
 *
 * @example
 * p2cCheckAgainAt([{ at: '2025-03-17T12:00:00.000Z', event: 'pago_movil_searched' }]) // Date.parse('2025-03-17T12:00:15.000Z')
 */
export function p2cCheckAgainAt(trace: readonly { at: string; event: string }[]): number | null {
  const searches = trace.filter((entry) => entry.event === P2C_SEARCHED);
  const last = searches.at(-1) ?? trace.at(-1);
  if (!last) return null;
  if (searches.length === 0) return Date.parse(last.at);
  const afterSeconds = P2C_RECHECK_DELAYS_SECONDS[searches.length - 1];
  return afterSeconds === undefined ? null : Date.parse(last.at) + afterSeconds * 1000;
}
