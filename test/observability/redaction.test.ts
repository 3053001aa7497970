import { describe, expect, it } from 'vitest';
import { maskSensitiveText, passesLuhn, REDACTED, redactingReplacer } from '../../shared/observability/redaction.ts';

const redact = (value: unknown) => JSON.parse(JSON.stringify(value, redactingReplacer)) as unknown;

describe('passesLuhn', () => {
  it('accepts test card numbers and refuses one with a digit changed', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('378282246310005')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
  });
});

describe('maskSensitiveText', () => {
  it('masks Luhn-valid card numbers to their last four digits, grouped or not', () => {
    expect(maskSensitiveText('paid with 4111111111111111.')).toBe('paid with ************1111.');
    expect(maskSensitiveText('card 4111 1111 1111 1111 ok')).toBe('card ************1111 ok');
    expect(maskSensitiveText('amex 3782-822463-10005')).toBe('amex ***********0005');
  });

  it('leaves digit runs that are not card numbers: Luhn-invalid, too short, part of a longer run', () => {
    expect(maskSensitiveText('ref 4111111111111112')).toBe('ref 4111111111111112');
    expect(maskSensitiveText('amount 411111111111')).toBe('amount 411111111111');
    const sequenceNumber = '4111111111111111000000';
    expect(maskSensitiveText(`seq ${sequenceNumber}`)).toBe(`seq ${sequenceNumber}`);
  });

  it('replaces webhook secrets, API keys and credentials after an auth scheme', () => {
    expect(maskSensitiveText('secret whsec_AbC123+/=')).toBe(`secret whsec_${REDACTED}`);
    expect(maskSensitiveText('key sk_live_abc123 and rk_test_XYZ9')).toBe(`key sk_live_${REDACTED} and rk_test_${REDACTED}`);
    expect(maskSensitiveText('Authorization: Bearer eyJhbGciOi.abc.def')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(maskSensitiveText('basic dXNlcjpwYXNz')).toBe(`basic ${REDACTED}`);
  });

  it('keeps publishable keys and ordinary references', () => {
    expect(maskSensitiveText('pk_test_abc cs_123 txn_456')).toBe('pk_test_abc cs_123 txn_456');
  });
});

describe('redactingReplacer', () => {
  it('redacts security codes, authorization headers and secrets by field name, at any depth', () => {
    expect(redact({ card: { number: '4111111111111111', cvv: '123', expMonth: 12 }, headers: { Authorization: 'whatever' }, otp: 123456 })).toEqual({
      card: { number: '************1111', cvv: REDACTED, expMonth: 12 },
      headers: { Authorization: REDACTED },
      otp: REDACTED,
    });
    expect(redact({ credentials: { client_secret: 's3cr3t', clientId: 'abc' } })).toEqual({ credentials: { client_secret: REDACTED, clientId: 'abc' } });
  });

  it('masks card numbers sent as numbers, but not epoch milliseconds', () => {
    expect(redact({ pan: 4111111111111111 })).toEqual({ pan: '************1111' });
    expect(redact({ expiresAt: 1763705703000 })).toEqual({ expiresAt: 1763705703000 });
  });
});
