import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { internationalPhone, isBankCode, maskedPhone, nationalPhone, payerDocumentIssue, validRif } from '../../shared/domain/pago-movil.ts';
import { decideP2c, P2C_RECHECK_DELAYS_SECONDS, P2C_SEARCHED, p2cCheckAgainAt, p2cSearches, referenceClaimKey } from '../../shared/domain/pago-movil-verification.ts';
import { methodDetails } from '../../shared/domain/payment-method.ts';

describe('pago móvil phones, banks and documents', () => {
  it('reads a mobile phone in every form a buyer types, and refuses landlines and other lengths', () => {
    for (const typed of ['04141234567', '0414-123.45.67', '+58 414 123 4567', '584141234567', '4141234567', '(0414) 1234567']) {
      expect(nationalPhone(typed)).toBe('04141234567');
    }
    for (const typed of ['02125551234', '0414123456', '041412345678', '+1 414 123 4567', '0415 1234567', 'cuatro']) {
      expect(nationalPhone(typed)).toBeNull();
    }
    expect(internationalPhone('04241234567')).toBe('584241234567');
  });

  it("checks a RIF's check digit: the reference's valid examples pass, any other last digit fails", () => {
    for (const rif of ['V-11470283-4', 'G-20009997-6', 'J-40724274-1', 'J-07013380-5']) {
      expect(validRif(rif)).toBe(rif);
      const [body, check] = [rif.slice(0, -1), Number(rif.slice(-1))];
      for (let d = 0; d <= 9; d++) if (d !== check) expect(validRif(`${body}${d}`), `${body}${d}`).toBeNull();
    }
    expect(validRif('j 40.724.274 1')).toBe('J-40724274-1');
    for (const bad of ['X-40724274-1', 'J-4072427-1', 'J407242741x', '']) expect(validRif(bad)).toBeNull();
  });

  it('masks any phone to its last four digits, keeping the length', () => {
    fc.assert(
      fc.property(fc.constantFrom('0412', '0414', '0416', '0424', '0426'), fc.stringMatching(/^\d{7}$/), (prefix, rest) => {
        const masked = maskedPhone(`${prefix}${rest}`);
        expect(masked).toHaveLength(11);
        expect(masked.endsWith(rest.slice(-4))).toBe(true);
        expect(masked.slice(0, 7)).toBe('*******');
      }),
    );
  });

  it('knows the bank codes of the reference, and nothing else', () => {
    expect(isBankCode('0105')).toBe(true);
    expect(isBankCode('0102')).toBe(true);
    expect(isBankCode('0116')).toBe(false);
    expect(isBankCode('105')).toBe(false);
  });

  it('checks cédula and RIF digits, and passport letters and digits', () => {
    expect(payerDocumentIssue('V', '9999999')).toBeNull();
    expect(payerDocumentIssue('V', '12A45')).not.toBeNull();
    expect(payerDocumentIssue('J', '1234')).not.toBeNull();
    expect(payerDocumentIssue('P', 'AB12345')).toBeNull();
  });
});

describe('P2C verification decisions', () => {
  it('approves the exact amount, records another amount without approving it, and treats a claimed payment as used', () => {
    expect(decideP2c({ kind: 'found', amountMinor: 1000, processorReference: '84840003380' }, 1000, 1)).toEqual({ kind: 'approve', processorReference: '84840003380' });
    expect(decideP2c({ kind: 'found', amountMinor: 900, processorReference: '1' }, 1000, 1)).toEqual({ kind: 'amount_differs', amountReceivedMinor: 900, processorReference: '1' });
    expect(decideP2c({ kind: 'already_claimed' }, 1000, 1)).toEqual({ kind: 'reference_used' });
  });

  it('looks again after not found or a silent bank for a bounded number of searches, then ends', () => {
    const delays: number[] = [];
    for (let searches = 1; ; searches++) {
      const decision = decideP2c(searches % 2 ? { kind: 'not_found' } : { kind: 'failed', code: 'x', detail: 'y' }, 1000, searches);
      if (decision.kind !== 'recheck') {
        expect(decision).toEqual({ kind: 'not_found' });
        expect(searches).toBe(P2C_RECHECK_DELAYS_SECONDS.length + 1);
        break;
      }
      delays.push(decision.afterSeconds);
    }
    expect(delays).toEqual([...P2C_RECHECK_DELAYS_SECONDS]);
  });

  it('is due its next search at the last search plus the delay after it, at once before any, and never after the last', () => {
    const at = (seconds: number) => new Date(Date.UTC(2025, 2, 17, 12, 0, seconds)).toISOString();
    const created = [{ at: at(0), event: 'created' }];
    expect(p2cCheckAgainAt(created)).toBe(Date.parse(at(0)));
    const searched = (times: number) => [...created, ...Array.from({ length: times }, (_, i) => ({ at: at(i), event: P2C_SEARCHED })), { at: at(59), event: 'pago_movil_not_found_yet' }];
    expect(p2cSearches(searched(1))).toBe(1);
    expect(p2cCheckAgainAt(searched(1))).toBe(Date.parse(at(0)) + 15_000);
    expect(p2cCheckAgainAt(searched(6))).toBe(Date.parse(at(5)) + 300_000);
    expect(p2cCheckAgainAt(searched(P2C_RECHECK_DELAYS_SECONDS.length + 1))).toBeNull();
  });

  it('claims a reference per merchant and payer bank, whatever the leading zeros', () => {
    expect(referenceClaimKey('mer_1', '0105', '0084840003380')).toBe(referenceClaimKey('mer_1', '0105', '84840003380'));
    expect(referenceClaimKey('mer_1', '0105', '1')).not.toBe(referenceClaimKey('mer_2', '0105', '1'));
    expect(referenceClaimKey('mer_1', '0105', '1')).not.toBe(referenceClaimKey('mer_1', '0102', '1'));
  });
});

describe('payment method details', () => {
  it('shows a card as a card, and pago móvil with its bank, masked phone and reference', () => {
    expect(methodDetails(undefined, undefined, 'x')).toEqual({ type: 'card' });
    expect(methodDetails('pago_movil_c2p', { bankCode: '0105', phone: '04141234567' }, '6460003485')).toEqual({
      type: 'pago_movil_c2p',
      pagoMovil: { bankCode: '0105', bankName: 'Mercantil', phone: '*******4567', reference: '6460003485', amountReceivedMinor: null },
    });
  });
});
