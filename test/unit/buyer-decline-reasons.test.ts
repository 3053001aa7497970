/**
 * Issue 33, finding 8: what the checkout tells the buyer of a rejected charge, by Stripe's rule. The buyer reads what
 * they can fix (wrong CVV, expired card, insufficient funds, a wrong number or expiry); lost, stolen, fraudulent,
 * pickup, restricted, security-violation and unknown codes read each network's one generic sentence.
 */
import { describe, expect, it } from 'vitest';
import { declineReason, forBuyer, GENERIC_DECLINE_REASON, PROCESSOR_CODES, SERVICE_CODES } from '../../shared/domain/decline-codes.ts';
import { recordOutcome, REASONS as MERCANTIL_REASONS } from '../../shared/connectors/mercantil/outcomes.ts';
import { chargeErrorOutcome, stripeDeclineReason } from '../../shared/connectors/stripe/outcomes.ts';

/** A declined transaction as stored, with the reason its connector wrote. */
const declined = (errorCode: string, reason: string) => ({ status: 'declined', errorCode, declineReason: reason, reference: 'txn_1' });

describe('forBuyer', () => {
  it('keeps the reason of a decline the buyer can fix, under the generic code', () => {
    for (const code of [PROCESSOR_CODES.WRONG_CVV, PROCESSOR_CODES.EXPIRED_CARD, PROCESSOR_CODES.INSUFFICIENT_FUNDS]) {
      const reason = declineReason(code, 'declined');
      expect(reason).not.toBe(GENERIC_DECLINE_REASON);
      expect(forBuyer(declined(code, reason))).toEqual({ ...declined(code, reason), errorCode: 'card_declined' });
    }
    const cvc = chargeErrorOutcome(402, { type: 'card_error', code: 'incorrect_cvc', message: "Your card's security code is incorrect." });
    expect(forBuyer(declined(cvc.code, cvc.reason)).declineReason).toMatch(/código de seguridad \(CVC\) no es correcto/);
  });

  it('reads the generic sentence for our own per-card refusal, and "try again" for every failure', () => {
    expect(forBuyer(declined(SERVICE_CODES.CARD_DECLINES_EXCEEDED, declineReason(SERVICE_CODES.CARD_DECLINES_EXCEEDED, 'declined')))).toMatchObject({ errorCode: 'card_declined', declineReason: GENERIC_DECLINE_REASON });
    expect(forBuyer({ status: 'failed', errorCode: 'mercantil_credentials_invalid', declineReason: MERCANTIL_REASONS.failed })).toEqual({
      status: 'failed',
      errorCode: 'processing_error',
      declineReason: declineReason(PROCESSOR_CODES.PROCESSOR_ERROR, 'failed'),
    });
  });

  it("shows the service's codes about the buyer's own steps as they are", () => {
    const otp = { status: 'declined', errorCode: SERVICE_CODES.OTP_ATTEMPTS_EXCEEDED, declineReason: declineReason(SERVICE_CODES.OTP_ATTEMPTS_EXCEEDED, 'declined') };
    expect(forBuyer(otp)).toEqual(otp);
  });
});

describe("each network's table gives the codes that help a card tester one generic sentence", () => {
  it('the sandbox bank: do not honor, lost, stolen and unknown codes alike', () => {
    for (const code of [PROCESSOR_CODES.DO_NOT_HONOR, PROCESSOR_CODES.LOST_CARD, PROCESSOR_CODES.STOLEN_CARD, '0059', '0062', '9999']) {
      expect(declineReason(code, 'declined'), code).toBe(GENERIC_DECLINE_REASON);
    }
  });

  it('Stripe: lost, stolen, fraudulent, pickup, restricted, security violation and unknown codes read generic_decline; fixable ones their own', () => {
    const generic = stripeDeclineReason('generic_decline', 'declined');
    for (const code of ['lost_card', 'stolen_card', 'fraudulent', 'pickup_card', 'restricted_card', 'security_violation', 'merchant_blacklist', 'not_a_stripe_code']) {
      expect(stripeDeclineReason(code, 'declined'), code).toBe(generic);
    }
    for (const code of ['incorrect_cvc', 'expired_card', 'insufficient_funds', 'incorrect_number', 'invalid_expiry_month', 'invalid_expiry_year']) {
      expect(stripeDeclineReason(code, 'declined'), code).not.toBe(generic);
    }
  });

  it('Mercantil: its codes have no public meaning, so every rejection reads its generic sentence', () => {
    expect(recordOutcome({ trx_status: 'rejected', trx_internal_status: '0041' })).toMatchObject({ kind: 'declined', reason: MERCANTIL_REASONS.declined });
  });
});
