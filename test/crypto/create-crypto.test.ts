import { EncryptCommand, GenerateMacCommand, KMS, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createFingerprinter, createSecretBox, cryptoConfigFromEnvironment, cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';

const keyArn = 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const newKeyDir = () => join(mkdtempSync(join(tmpdir(), 'svc-keys-')), 'keys');
const kms = mockClient(KMSClient);
afterEach(() => kms.reset());
afterAll(() => kms.restore());

describe('cryptoConfigFromEnvironment', () => {
  it('reads the KMS keys and the local key directory, treating empty values as unset', () => {
    expect(cryptoConfigFromEnvironment({ SECRETS_KMS_KEY_ARN: keyArn, FINGERPRINT_KMS_KEY_ID: 'alias/fp', LOCAL_KEY_DIR: '' })).toEqual({
      secretsKmsKeyArn: keyArn,
      fingerprintKmsKeyId: 'alias/fp',
      localKeyDir: undefined,
    });
  });
});

describe('createSecretBox', () => {
  it('uses KMS when a key ARN is configured, even with a local directory', async () => {
    kms.on(EncryptCommand).rejects(new Error('reached KMS'));
    const keyDir = newKeyDir();
    const box = createSecretBox({ secretsKmsKeyArn: keyArn, localKeyDir: keyDir }, { kms: new KMS({ region: 'us-east-1' }) });
    await expect(box.encrypt('x', { purpose: 'test' })).rejects.toThrow();
    expect(kms.commandCalls(EncryptCommand)).toHaveLength(1);
    expect(existsSync(keyDir)).toBe(false);
  });

  it('uses the local key file otherwise', async () => {
    const keyDir = newKeyDir();
    const box = createSecretBox({ localKeyDir: keyDir });
    expect(await box.decrypt(await box.encrypt('x', { purpose: 'test' }), { purpose: 'test' })).toBe('x');
    expect(existsSync(join(keyDir, 'secret-box.key'))).toBe(true);
  });

  it('says which variables to set when there is no key at all', () => {
    expect(() => createSecretBox({})).toThrow(/SECRETS_KMS_KEY_ARN.*LOCAL_KEY_DIR/);
  });
});

describe('createFingerprinter', () => {
  it('uses KMS when a key id is configured', async () => {
    kms.on(GenerateMacCommand).resolves({ Mac: Uint8Array.from([0xfe]) });
    const fingerprinter = createFingerprinter({ fingerprintKmsKeyId: 'alias/fp', localKeyDir: newKeyDir() }, { kms: new KMSClient({ region: 'us-east-1' }) });
    expect(await fingerprinter.fingerprint('x')).toBe('fe');
  });

  it('uses the local key file otherwise, and says which variables to set when there is none', async () => {
    expect(await createFingerprinter({ localKeyDir: newKeyDir() }).fingerprint('x')).toMatch(/^[0-9a-f]{64}$/);
    expect(() => createFingerprinter({})).toThrow(/FINGERPRINT_KMS_KEY_ID.*LOCAL_KEY_DIR/);
  });
});

describe('cryptoFromEnvironment', () => {
  it('reads and builds nothing until first used, then fails naming the missing variable', async () => {
    const { secretBox, fingerprinter } = cryptoFromEnvironment({});
    await expect(secretBox.encrypt('x', { purpose: 'test' })).rejects.toThrow(/SECRETS_KMS_KEY_ARN/);
    await expect(fingerprinter.fingerprint('x')).rejects.toThrow(/FINGERPRINT_KMS_KEY_ID/);
  });

  it('creates the local keys on first use only', async () => {
    const keyDir = newKeyDir();
    const { secretBox } = cryptoFromEnvironment({ LOCAL_KEY_DIR: keyDir });
    expect(existsSync(keyDir)).toBe(false);
    const sealed = await secretBox.encrypt('x', { purpose: 'test' });
    expect(await secretBox.decrypt(sealed, { purpose: 'test' })).toBe('x');
    expect(existsSync(join(keyDir, 'secret-box.key'))).toBe(true);
  });
});
