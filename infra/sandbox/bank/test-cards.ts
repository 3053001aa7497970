/**
 * The sandbox bank's test cards: the catalogue published in docs/payments.md. Any expiry in the past declines with
 * 0120 whatever the number; a number not listed here is declined with 0005 (do not honor).
 */
import { PROCESSOR_CODES } from '../../../shared/domain/decline-codes.ts';

export type CardBehaviour =
  | { kind: 'approve' }
  | { kind: 'decline' | 'error'; code: string; message: string }
  | { kind: 'otp' }
  | { kind: 'timeout' };

/**
 * What the bank does with a refund (or void) of a charge made with the card; `succeed` unless the card says otherwise.
 * pending: accepted, paid out when the bank settles it (REFUND_SETTLEMENT_MS later on the sandbox clock); timeout:
 * made at the bank, but the answer never arrives in time.
 */
export type RefundBehaviour = 'succeed' | 'fail' | 'pending' | 'timeout';

/** The code and message of the refund the "refund fails" card's bank refuses. */
export const REFUND_REFUSED = { code: '0057', message: 'Refund not permitted: the card account is closed' } as const;

export const OTP_CODE = '123456';

export const TEST_CARDS: Record<string, { behaviour: CardBehaviour; description: string; refund?: RefundBehaviour }> = {
  '4111111111111111': { behaviour: { kind: 'approve' }, description: 'Visa: approved' },
  '5555555555554444': { behaviour: { kind: 'approve' }, description: 'Mastercard: approved' },
  '4000000000000002': { behaviour: { kind: 'decline', code: PROCESSOR_CODES.INSUFFICIENT_FUNDS, message: 'Insufficient funds' }, description: 'Declined: insufficient funds (0051)' },
  '4000000000000127': { behaviour: { kind: 'decline', code: PROCESSOR_CODES.WRONG_CVV, message: 'Incorrect CVV2/CVC2' }, description: 'Declined: wrong CVV (0082)' },
  '4000000000009961': { behaviour: { kind: 'decline', code: PROCESSOR_CODES.LOST_CARD, message: 'Lost card, pick up' }, description: 'Declined: lost card (0041); the buyer reads the generic decline' },
  '4000000000009979': { behaviour: { kind: 'decline', code: PROCESSOR_CODES.STOLEN_CARD, message: 'Stolen card, pick up' }, description: 'Declined: stolen card (0043); the buyer reads the generic decline' },
  '4000000000000119': { behaviour: { kind: 'error', code: PROCESSOR_CODES.PROCESSOR_ERROR, message: 'System malfunction at the issuer switch' }, description: 'Failed: processor error (0096)' },
  '4000000000003220': { behaviour: { kind: 'otp' }, description: `Asks for an OTP on every gateway; ${OTP_CODE} confirms (then approved), any other code is wrong` },
  '4000000000009995': { behaviour: { kind: 'timeout' }, description: 'Times out: charged at the bank, but the answer never arrives in time' },
  '4000000000005126': { behaviour: { kind: 'approve' }, refund: 'fail', description: `Approved; its refunds fail at the bank (${REFUND_REFUSED.code})` },
  '4000000000007726': { behaviour: { kind: 'approve' }, refund: 'pending', description: 'Approved; its refunds stay pending until the bank settles them (10 minutes later)' },
  '4000000000009987': { behaviour: { kind: 'approve' }, refund: 'timeout', description: 'Approved; its refunds are made at the bank, but the answer never arrives in time' },
};

export const refundBehaviour = (cardNumber: string): RefundBehaviour => TEST_CARDS[cardNumber]?.refund ?? 'succeed';

const DO_NOT_HONOR: CardBehaviour = { kind: 'decline', code: PROCESSOR_CODES.DO_NOT_HONOR, message: 'Do not honor' };

/** What the bank does with this card at this moment (the sandbox clock decides what "past expiry" means). */
export function cardBehaviour(card: { number: string; expMonth: number; expYear: number }, now: number): CardBehaviour {
  const today = new Date(now);
  const expired = card.expYear < today.getUTCFullYear() || (card.expYear === today.getUTCFullYear() && card.expMonth < today.getUTCMonth() + 1);
  if (expired) return { kind: 'decline', code: PROCESSOR_CODES.EXPIRED_CARD, message: 'Expired card' };
  return TEST_CARDS[card.number]?.behaviour ?? DO_NOT_HONOR;
}
