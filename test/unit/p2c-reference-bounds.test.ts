import { describe, expect, it } from 'vitest';
import { P2C_REFERENCES_PER_SESSION, referenceSubmission, samePayment } from '../../shared/domain/pago-movil-verification.ts';

const ref = (reference: string, bankCode = '0105') => ({ bankCode, reference });

describe('P2C references per session', () => {
  it('takes new references up to the bound, then refuses another', () => {
    expect(P2C_REFERENCES_PER_SESSION).toBe(3);
    expect(referenceSubmission([], ref('111'))).toEqual({ kind: 'new' });
    expect(referenceSubmission([ref('111'), ref('222')], ref('333'))).toEqual({ kind: 'new' });
    expect(referenceSubmission([ref('111'), ref('222'), ref('333')], ref('444'))).toEqual({ kind: 'limit_reached', limit: 3 });
  });

  it('treats a reference submitted before as a re-check, leading zeros aside, even once the bound is reached', () => {
    const earlier = [ref('111'), ref('222'), ref('333')];
    expect(referenceSubmission(earlier, ref('222'))).toEqual({ kind: 'recheck' });
    expect(referenceSubmission(earlier, ref('000333'))).toEqual({ kind: 'recheck' });
  });

  it('counts the same payment submitted twice once, and the same digits at another bank as another payment', () => {
    expect(referenceSubmission([ref('111'), ref('0111'), ref('222')], ref('333'))).toEqual({ kind: 'new' });
    expect(referenceSubmission([ref('111'), ref('111', '0134'), ref('222')], ref('333'))).toEqual({ kind: 'limit_reached', limit: 3 });
    expect(referenceSubmission([ref('111')], ref('111', '0134'))).toEqual({ kind: 'new' });
  });

  it('tells payments apart by bank and reference digits', () => {
    expect(samePayment(ref('0084840003380'), ref('84840003380'))).toBe(true);
    expect(samePayment(ref('84840003380'), ref('84840003380', '0102'))).toBe(false);
    expect(samePayment(ref('84840003380'), ref('84840003381'))).toBe(false);
  });
});
