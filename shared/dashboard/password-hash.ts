/**
 * scrypt password hashes for the sandbox's user directory (Cognito keeps them in AWS). Format:
 * `scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>`, so the cost can rise without breaking stored hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's work factors: N (CPU and memory, a power of two), r (block size), p (parallelism). */
export interface PasswordCost {
  N: number;
  r: number;
  p: number;
}
/** The sandbox's default: about 30 ms of CPU per hash on the two-core CI machine. */
export const PASSWORD_COST: PasswordCost = { N: 16384, r: 8, p: 1 };
const KEY_BYTES = 32;

const derive = (password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_BYTES, { ...options, maxmem: 64 * 1024 * 1024 }, (e, key) => (e ? reject(e) : resolve(key))));

/**
 * A new salted hash of `password`.
 *
 * @example
 * const stored = await hashPassword('correct horse battery staple');
 * await verifyPassword('correct horse battery staple', stored) // true
 */
export async function hashPassword(password: string, cost: PasswordCost = PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches `stored`; a malformed `stored` never matches. Constant time in the comparison. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash no password matches in practice, at that cost: checked when the email has no account, so both answers take as long. */
export const unmatchableHash = (cost: PasswordCost = PASSWORD_COST): string =>
  `scrypt$${cost.N}$${cost.r}$${cost.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_BYTES).toString('base64url')}`;
