/**
 * TOTP (RFC 6238) as authenticator apps and Cognito use it: SHA-1, 30-second steps, 6 digits, one step of drift
 * either way. Pure: the caller passes the time. Codes are checked against the time of the user's phone, which keeps
 * its own: real time, never the service's injectable clock (the sandbox's directory takes it as `authenticatorClock`).
 *
 * @example
 * const secret = newTotpSecret(); // 'JBSWY3DPEHPK3PXP…' (base32)
 * totpUri(secret, 'ana@example.com'); // 'otpauth://totp/svc:ana%40example.com?issuer=svc&secret=…'
 * totpStep(secret, '123456', Date.now()); // the step the code belongs to, or null
 */
import { Secret, TOTP } from 'otpauth';

/** The name an authenticator app shows above the account's codes. */
export const TOTP_ISSUER = 'svc';
const PERIOD_SECONDS = 30;

const totp = (secret: string, label = '') =>
  new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** 160 random bits (RFC 4226's recommended length), base32 as apps take it typed in. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URI a QR code carries: issuer and account shown in the app. */
export const totpUri = (secret: string, account: string): string => totp(secret, account).toString();

/** The code for the step holding `atMs` (tests compute what the app would show). */
export const totpCode = (secret: string, atMs: number): string => totp(secret).generate({ timestamp: atMs });

/**
 * The time step (30-second count since the epoch) the code was made for, within ±1 step of `atMs`; null when it
 * matches none. A caller that records the last step used refuses a code replayed within its window.
 */
export function totpStep(secret: string, code: string, atMs: number): number | null {
  const delta = totp(secret).validate({ token: code, timestamp: atMs, window: 1 });
  return delta === null ? null : Math.floor(atMs / 1000 / PERIOD_SECONDS) + delta;
}
