import { KmsKeyringNode } from '@aws-crypto/client-node';
import type { KMS } from '@aws-sdk/client-kms';
import { CryptoError } from './errors.ts';
import { keyringSecretBox } from './keyring-secret-box.ts';
import type { SecretBox } from './secret-box.ts';

// Decrypt matches the key recorded in the message, which KMS records as a key ARN: an alias would encrypt but never decrypt.
const KEY_ARN = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]+$/;

/**
 * The AWS SecretBox: each secret gets its own data key from KMS (GenerateDataKey), wrapped by the symmetric key
 * `keyArn`. `kms` replaces the SDK's per-region clients (tests); by default the region comes from the ARN.
 *
 * @example
 * const box = kmsSecretBox({ keyArn: process.env.SECRETS_KMS_KEY_ARN! });
 */
export function kmsSecretBox({ keyArn, kms }: { keyArn: string; kms?: KMS }): SecretBox {
  if (!KEY_ARN.test(keyArn)) {
    throw new CryptoError(`The secrets key must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>), not "${keyArn}".`);
  }
  return keyringSecretBox(new KmsKeyringNode({ generatorKeyId: keyArn, ...(kms ? { clientProvider: () => kms } : {}) }));
}
