import type { KMSClient } from '@aws-sdk/client-kms';
import { CryptoError } from './errors.ts';
import type { Fingerprinter } from './secret-box.ts';

/**
 * The AWS Fingerprinter: KMS GenerateMac (HMAC_SHA_256) with an HMAC_256 key, as lowercase hex like the local one.
 * The key never leaves KMS, so every fingerprint is one call; nothing is cached. `kms` replaces the client (tests).
 *
 * @example
 * await kmsFingerprinter({ keyId: process.env.FINGERPRINT_KMS_KEY_ID! }).fingerprint('4111111111111111');
 */
export function kmsFingerprinter({ keyId, kms }: { keyId: string; kms?: KMSClient }): Fingerprinter {
  let client = kms;
  return {
    async fingerprint(value) {
      // Loaded on the first call, not at import: the KMS client costs a Lambda function about 30 ms of start-up.
      const { GenerateMacCommand, KMSClient } = await import('@aws-sdk/client-kms');
      client ??= new KMSClient({});
      const { Mac } = await client.send(new GenerateMacCommand({ KeyId: keyId, MacAlgorithm: 'HMAC_SHA_256', Message: Buffer.from(value, 'utf8') }));
      if (!Mac) throw new CryptoError('KMS GenerateMac answered without a MAC.');
      return Buffer.from(Mac).toString('hex');
    },
  };
}
