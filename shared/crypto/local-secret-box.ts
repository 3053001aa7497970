import { RawAesKeyringNode, RawAesWrappingSuiteIdentifier } from '@aws-crypto/client-node';
import { join } from 'node:path';
import { keyringSecretBox } from './keyring-secret-box.ts';
import { readOrCreateKeyFile } from './local-key-file.ts';
import type { SecretBox } from './secret-box.ts';

/**
 * The sandbox's SecretBox: a raw AES-256 keyring over `<keyDir>/secret-box.key`, created on first use. The key's
 * namespace and name are written into every message, so they must never change.
 *
 * @example
 * const box = localSecretBox('.sandbox/keys');
 * const sealed = await box.encrypt('{"user":"u"}', { merchantId: 'mer_1', purpose: 'bank_credentials' });
 */
export function localSecretBox(keyDir: string): SecretBox {
  return keyringSecretBox(
    new RawAesKeyringNode({
      keyNamespace: 'svc-local',
      keyName: 'secret-box',
      unencryptedMasterKey: readOrCreateKeyFile(join(keyDir, 'secret-box.key')),
      wrappingSuite: RawAesWrappingSuiteIdentifier.AES256_GCM_IV12_TAG16_NO_PADDING,
    }),
  );
}
