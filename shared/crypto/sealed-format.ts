import { CryptoError, DecryptionError } from './errors.ts';

/** KMS Encrypt's plaintext limit. The local stand-in keeps it too, so the sandbox refuses what AWS would. */
export const MAX_PLAINTEXT_BYTES = 4096;

/** KMS and AES-GCM both refuse without saying which of these it was. */
export const NOT_OPENED =
  'The secret could not be opened: it was sealed for another record (its encryption context differs), with another key, or it is damaged.';

/**
 * The UTF-8 bytes of a secret about to be sealed, after the checks both SecretBoxes share.
 *
 * @example
 * const bytes = plaintextToSeal('secret', { merchantId: 'mer_1', purpose: 'bank_credentials' });
 */
export function plaintextToSeal(plaintext: string, context: Record<string, string>): Buffer {
  if (Object.keys(context).length === 0) throw new CryptoError('An encryption context is required: it binds the secret to its record.');
  const bytes = Buffer.from(plaintext, 'utf8');
  if (bytes.length > MAX_PLAINTEXT_BYTES) {
    throw new CryptoError(`A secret may be at most ${MAX_PLAINTEXT_BYTES} bytes (the KMS Encrypt limit); this one has ${bytes.length}.`);
  }
  return bytes;
}

/**
 * `<format>:<base64>`: the prefix names the format, so a later one can be told apart from this one.
 *
 * @example
 * withFormat('kms1', blob); // 'kms1:AQICAHh...'
 */
export function withFormat(format: string, bytes: Uint8Array): string {
  return `${format}:${Buffer.from(bytes).toString('base64')}`;
}

/** The bytes of a `<format>:<base64>` ciphertext; anything else (an Encryption SDK message, another format) is refused. */
export function withoutFormat(format: string, sealed: string): Buffer {
  if (!sealed.startsWith(`${format}:`)) {
    throw new DecryptionError(
      `The secret is not a ${format} ciphertext, so it cannot be opened. Secrets sealed by the AWS Encryption SDK (before it was replaced by direct KMS calls) are not readable any more: in the sandbox, delete .sandbox/ and start again.`,
    );
  }
  return Buffer.from(sealed.slice(format.length + 1), 'base64');
}
