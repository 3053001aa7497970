import { DecryptCommand, GenerateDataKeyCommand, KMS, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DecryptionError } from '../../shared/crypto/errors.ts';
import { kmsSecretBox } from '../../shared/crypto/kms-secret-box.ts';

// KMS has no local engine: the client is mocked here, and the local stand-in is tested in local-secret-box.test.ts.
const keyArn = 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const context = { merchantId: 'mer_1', gateway: 'bank_direct', purpose: 'bank_credentials' };
const secret = '{"username":"acme","password":"S3cr3t-Pa55word!"}';

/**
 * A KMS that behaves like the real one where the keyring can tell: a data key "wrapped" into an opaque blob that
 * Decrypt gives back only with the same encryption context. The SDK zeroes the plaintext it receives, so every
 * answer carries a fresh copy.
 */
const canonical = (context: Record<string, string> = {}) => JSON.stringify(Object.entries(context).sort());

function fakeKms() {
  const mock = mockClient(KMSClient);
  const wrapped = new Map<string, { dataKey: Buffer; context: string }>();
  mock.on(GenerateDataKeyCommand).callsFake((input: { NumberOfBytes?: number; EncryptionContext?: Record<string, string> }) => {
    const dataKey = randomBytes(input.NumberOfBytes ?? 32);
    const blob = randomBytes(48);
    wrapped.set(blob.toString('hex'), { dataKey, context: canonical(input.EncryptionContext) });
    return { KeyId: keyArn, Plaintext: new Uint8Array(dataKey), CiphertextBlob: new Uint8Array(blob) };
  });
  mock.on(DecryptCommand).callsFake((input: { CiphertextBlob?: Uint8Array; EncryptionContext?: Record<string, string> }) => {
    const entry = wrapped.get(Buffer.from(input.CiphertextBlob!).toString('hex'));
    if (!entry || entry.context !== canonical(input.EncryptionContext)) throw Object.assign(new Error('InvalidCiphertextException'), { name: 'InvalidCiphertextException' });
    return { KeyId: keyArn, Plaintext: new Uint8Array(entry.dataKey) };
  });
  return mock;
}

describe('kmsSecretBox', () => {
  let kms: ReturnType<typeof fakeKms>;
  beforeEach(() => {
    kms = fakeKms();
  });
  afterEach(() => kms.restore());
  const box = () => kmsSecretBox({ keyArn, kms: new KMS({ region: 'us-east-1' }) });

  it('wraps a fresh data key with the configured key and opens the secret again through KMS Decrypt', async () => {
    const sealed = await box().encrypt(secret, context);
    expect(await box().decrypt(sealed, context)).toBe(secret);

    const generate = kms.commandCalls(GenerateDataKeyCommand);
    expect(generate).toHaveLength(1);
    expect(generate[0]!.args[0].input).toMatchObject({ KeyId: keyArn, NumberOfBytes: 32, EncryptionContext: expect.objectContaining(context) });
    const decrypt = kms.commandCalls(DecryptCommand);
    expect(decrypt).toHaveLength(1);
    expect(decrypt[0]!.args[0].input).toMatchObject({ KeyId: keyArn, EncryptionContext: expect.objectContaining(context) });
  });

  it('does not contain the plaintext', async () => {
    const sealed = await box().encrypt(secret, context);
    expect(Buffer.from(sealed, 'base64').includes(Buffer.from('S3cr3t-Pa55word!'))).toBe(false);
  });

  it('rejects another record’s context', async () => {
    const sealed = await box().encrypt(secret, context);
    await expect(box().decrypt(sealed, { ...context, merchantId: 'mer_2' })).rejects.toThrow(/sealed for another record/);
    // KMS opened the data key (the message is genuine); the box itself refused the context.
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(1);
  });

  it('rejects a tampered ciphertext', async () => {
    const bytes = Buffer.from(await box().encrypt(secret, context), 'base64');
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0x01;
    await expect(box().decrypt(bytes.toString('base64'), context)).rejects.toThrow(DecryptionError);
  });

  it('refuses a key alias: KMS records key ARNs, so an alias could encrypt but never decrypt', () => {
    expect(() => kmsSecretBox({ keyArn: 'alias/svc-secrets' })).toThrow(/must be a KMS key ARN/);
  });
});
