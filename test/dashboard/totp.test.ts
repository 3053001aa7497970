import { describe, expect, it } from 'vitest';
import { newTotpSecret, totpCode, totpStep, totpUri } from '../../shared/dashboard/totp.ts';

// RFC 6238 appendix B's SHA-1 key ("12345678901234567890") in base32; its 8-digit codes end in these 6 digits.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS: [seconds: number, code: string][] = [
  [59, '287082'],
  [1111111109, '081804'],
  [1111111111, '050471'],
  [1234567890, '005924'],
  [2000000000, '279037'],
];

describe('TOTP (RFC 6238: SHA-1, 30 s, 6 digits)', () => {
  it.each(RFC_VECTORS)('makes the RFC test vector at T = %i s', (seconds, code) => {
    expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(code);
    expect(totpStep(RFC_SECRET, code, seconds * 1000)).toBe(Math.floor(seconds / 30));
  });

  it('takes a code one step early or late, not two', () => {
    const at = 1234567890_000;
    const code = totpCode(RFC_SECRET, at);
    const step = Math.floor(at / 30_000);
    expect(totpStep(RFC_SECRET, code, at + 30_000)).toBe(step);
    expect(totpStep(RFC_SECRET, code, at - 30_000)).toBe(step);
    expect(totpStep(RFC_SECRET, code, at + 60_000)).toBeNull();
    expect(totpStep(RFC_SECRET, '000000', at)).toBeNull();
  });

  it('makes 160-bit base32 secrets and the otpauth URI apps scan', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, 'ana@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/svc:ana@example.com');
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({ issuer: 'svc', secret, algorithm: 'SHA1', digits: '6', period: '30' });
  });
});
