import { buildClient, CommitmentPolicy, type KeyringNode } from '@aws-crypto/client-node';
import { CryptoError, DecryptionError } from './errors.ts';
import type { SecretBox } from './secret-box.ts';

// Key commitment on both sides; one encrypted data key per message, because we wrap with exactly one key and a
// crafted message with many would make every decrypt call KMS many times.
const esdk = buildClient({ commitmentPolicy: CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT, maxEncryptedDataKeys: 1 });

/** Pairs the SDK adds itself (the signing suite's public key) carry this reserved prefix. */
const SDK_CONTEXT_PREFIX = 'aws-crypto-';

/**
 * A SecretBox over any Encryption SDK keyring, with the SDK's default suite (AES-256-GCM, HKDF, key commitment,
 * ECDSA P-384 signature: a role that may only decrypt cannot forge a secret). Decrypt demands that the message was
 * bound to exactly the given context; the SDK authenticates the context but leaves comparing it to the caller.
 *
 * @example
 * const box = keyringSecretBox(new KmsKeyringNode({ generatorKeyId: keyArn }));
 * const sealed = await box.encrypt('secret', { merchantId: 'mer_1', purpose: 'bank_credentials' });
 */
export function keyringSecretBox(keyring: KeyringNode): SecretBox {
  return {
    async encrypt(plaintext, context) {
      if (Object.keys(context).length === 0) throw new CryptoError('An encryption context is required: it binds the secret to its record.');
      const { result } = await esdk.encrypt(keyring, Buffer.from(plaintext, 'utf8'), { encryptionContext: context });
      return result.toString('base64');
    },
    async decrypt(ciphertext, context) {
      let opened: Awaited<ReturnType<typeof esdk.decrypt>>;
      try {
        opened = await esdk.decrypt(keyring, Buffer.from(ciphertext, 'base64'));
      } catch (error) {
        throw new DecryptionError(`The secret could not be decrypted: ${(error as Error).message}`, { cause: error });
      }
      if (!sameContext(opened.messageHeader.encryptionContext, context)) {
        throw new DecryptionError('The secret was sealed for another record: its encryption context does not match.');
      }
      return opened.plaintext.toString('utf8');
    },
  };
}

function sameContext(bound: Record<string, string>, expected: Record<string, string>): boolean {
  const ours = Object.entries(bound).filter(([name]) => !name.startsWith(SDK_CONTEXT_PREFIX));
  return ours.length === Object.keys(expected).length && ours.every(([name, value]) => expected[name] === value);
}
