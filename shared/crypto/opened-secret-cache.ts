import { TtlCache } from '../auth/ttl-cache.ts';
import type { Clock } from '../clock.ts';
import { CARD_NUMBER_PURPOSE } from '../domain/stored-card.ts';
import type { SecretBox } from './secret-box.ts';

/**
 * How long an opened secret stays in a process's memory. Every webhook delivery and every bank charge opens one
 * (a KMS Decrypt, the biggest line of a webhook's cost); five minutes, like the key cache's order of magnitude,
 * keeps the saving while a rotated secret (a new ciphertext) is used at once.
 */
export const OPENED_SECRET_TTL_MS = 5 * 60_000;

const cacheKey = (ciphertext: string, context: Record<string, string>) =>
  JSON.stringify([ciphertext, Object.entries(context).sort(([a], [b]) => (a < b ? -1 : 1))]);

export interface CachingSecretBox extends SecretBox {
  /** The box that really opens (KMS in AWS): what the benchmark counts, as KMS would see it. */
  readonly uncached: SecretBox;
}

/**
 * Remembers opened secrets (bank credentials, webhook secrets and credentials) for a few minutes. The key is the
 * ciphertext with its whole encryption context, so a wrong context still fails in the box. Card numbers are never
 * kept: they are opened only for the one charge that needs them.
 *
 * @example
 * const box = withOpenedSecretCache(kmsSecretBox({ keyArn }), systemClock);
 */
export function withOpenedSecretCache(box: SecretBox, clock: Clock, ttlMs = OPENED_SECRET_TTL_MS): CachingSecretBox {
  const opened = new TtlCache<string>(clock, ttlMs);
  return {
    uncached: box,
    encrypt: (plaintext, context) => box.encrypt(plaintext, context),
    decrypt: (ciphertext, context) =>
      context.purpose === CARD_NUMBER_PURPOSE ? box.decrypt(ciphertext, context) : opened.getOrLoad(cacheKey(ciphertext, context), () => box.decrypt(ciphertext, context)),
  };
}
