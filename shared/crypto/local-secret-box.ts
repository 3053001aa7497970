import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DecryptionError } from './errors.ts';
import { readOrCreateKeyFile } from './local-key-file.ts';
import { NOT_OPENED, plaintextToSeal, withFormat, withoutFormat } from './sealed-format.ts';
import type { SecretBox } from './secret-box.ts';

const FORMAT = 'local1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The context as additional authenticated data: sorted pairs, so the order the caller wrote them in does not matter. */
const contextAad = (context: Record<string, string>) =>
  Buffer.from(JSON.stringify(Object.entries(context).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), 'utf8');

/**
 * The sandbox's stand-in for the KMS SecretBox: AES-256-GCM with `<keyDir>/secret-box.key` (created on first use),
 * a random 12-byte IV per secret and the encryption context as additional authenticated data, so like KMS it opens
 * a secret only with the same key and exactly the same context. Format: `local1:` + base64(IV | ciphertext | tag).
 *
 * @example
 * const box = localSecretBox('.sandbox/keys');
 * const sealed = await box.encrypt('{"user":"u"}', { merchantId: 'mer_1', purpose: 'bank_credentials' });
 */
export function localSecretBox(keyDir: string): SecretBox {
  const key = readOrCreateKeyFile(join(keyDir, 'secret-box.key'));
  return {
    async encrypt(plaintext, context) {
      const bytes = plaintextToSeal(plaintext, context);
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(contextAad(context));
      return withFormat(FORMAT, Buffer.concat([iv, cipher.update(bytes), cipher.final(), cipher.getAuthTag()]));
    },
    async decrypt(ciphertext, context) {
      const bytes = withoutFormat(FORMAT, ciphertext);
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new DecryptionError(NOT_OPENED);
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES })
        .setAAD(contextAad(context))
        .setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        // OpenSSL says only "unable to authenticate data": nothing worth keeping as a cause.
        throw new DecryptionError(NOT_OPENED);
      }
    },
  };
}
