import { GenerateMacCommand, KMSClient } from '@aws-sdk/client-kms';
import { CryptoError } from './errors.ts';
import type { Fingerprinter } from './secret-box.ts';

/**
 * The AWS Fingerprinter: KMS GenerateMac (HMAC_SHA_256) with an HMAC_256 key, as lowercase hex like the local one.
 * The key never leaves KMS, so every fingerprint is one call; nothing is cached.
 *
 * @example
 * await kmsFingerprinter({ keyId: process.env.FINGERPRINT_KMS_KEY_ID! }).fingerprint('4111111111111111');
 */
export function kmsFingerprinter({ keyId, kms = new KMSClient({}) }: { keyId: string; kms?: KMSClient }): Fingerprinter {
  return {
    async fingerprint(value) {
      const { Mac } = await kms.send(new GenerateMacCommand({ KeyId: keyId, MacAlgorithm: 'HMAC_SHA_256', Message: Buffer.from(value, 'utf8') }));
      if (!Mac) throw new CryptoError('KMS GenerateMac answered without a MAC.');
      return Buffer.from(Mac).toString('hex');
    },
  };
}
