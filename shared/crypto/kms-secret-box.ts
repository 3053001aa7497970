import type { KMSClient } from '@aws-sdk/client-kms';
import { CryptoError, DecryptionError } from './errors.ts';
import { NOT_OPENED, plaintextToSeal, withFormat, withoutFormat } from './sealed-format.ts';
import type { SecretBox } from './secret-box.ts';

const FORMAT = 'kms1';
// A key ARN, not an alias: the IAM grants name the key, and the client's region comes from it.
const KEY_ARN = /^arn:aws[a-z-]*:kms:([a-z0-9-]+):\d{12}:key\/[A-Za-z0-9-]+$/;

/**
 * The AWS SecretBox: one KMS Encrypt to seal and one Decrypt to open, under the symmetric key `keyArn`. KMS does
 * the AES-256-GCM and binds the encryption context: Decrypt succeeds only with exactly the context given to Encrypt,
 * and the key policy can test it (kms:EncryptionContext:purpose). `kms` replaces the client (tests).
 *
 * @example
 * const box = kmsSecretBox({ keyArn: process.env.SECRETS_KMS_KEY_ARN! });
 * const sealed = await box.encrypt('secret', { merchantId: 'mer_1', purpose: 'bank_credentials' }); // 'kms1:...'
 */
export function kmsSecretBox({ keyArn, kms }: { keyArn: string; kms?: KMSClient }): SecretBox {
  const region = KEY_ARN.exec(keyArn)?.[1];
  if (!region) throw new CryptoError(`The secrets key must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>), not "${keyArn}".`);
  let kmsClient = kms;
  // The KMS client loads on the first call, not at import: it costs a Lambda function about 30 ms of start-up,
  // and most functions that can open a secret do so on some requests only (the SDK stays external to the bundle).
  const connect = async () => {
    const sdk = await import('@aws-sdk/client-kms');
    kmsClient ??= new sdk.KMSClient({ region });
    return { sdk, client: kmsClient };
  };
  return {
    async encrypt(plaintext, context) {
      const toSeal = plaintextToSeal(plaintext, context);
      const { sdk, client } = await connect();
      const { CiphertextBlob } = await client.send(new sdk.EncryptCommand({ KeyId: keyArn, Plaintext: toSeal, EncryptionContext: context }));
      if (!CiphertextBlob) throw new CryptoError('KMS Encrypt answered without a ciphertext.');
      return withFormat(FORMAT, CiphertextBlob);
    },
    async decrypt(ciphertext, context) {
      const blob = withoutFormat(FORMAT, ciphertext);
      const { sdk, client } = await connect();
      let opened;
      try {
        opened = await client.send(new sdk.DecryptCommand({ KeyId: keyArn, CiphertextBlob: blob, EncryptionContext: context }));
      } catch (error) {
        // Refusals of the ciphertext itself; throttling, access denied and network errors pass through as they are.
        if (error instanceof sdk.InvalidCiphertextException || error instanceof sdk.IncorrectKeyException) throw new DecryptionError(NOT_OPENED);
        throw error;
      }
      if (!opened.Plaintext) throw new CryptoError('KMS Decrypt answered without a plaintext.');
      return Buffer.from(opened.Plaintext).toString('utf8');
    },
  };
}
