import { randomBytes, randomUUID } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Unbiased random base62 string: 24 characters carry ~143 bits, beyond guessing.
 *
 * @example
 * randomToken() // 'q3Vx9...'
 */
export function randomToken(length = 24): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: bytes above it would favour the first characters.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export const newId = (): string => randomUUID();

/** Public identifiers carry their kind in a prefix, so a misplaced id is obvious in logs and errors. */
export const prefixedId = (prefix: 'cs' | 'txn' | 'evt' | 'whsec' | 'tok_svc' | 'we' | 'wd' | 'mer'): string =>
  `${prefix}_${randomToken()}`;
