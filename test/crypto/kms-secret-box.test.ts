import { DecryptCommand, EncryptCommand, InvalidCiphertextException, KMS, KMSClient, KMSInternalException } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CryptoError, DecryptionError } from '../../shared/crypto/errors.ts';
import { kmsSecretBox } from '../../shared/crypto/kms-secret-box.ts';

// KMS has no local engine: the client is mocked here, and the local stand-in is tested in local-secret-box.test.ts.
const keyArn = 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const context = { merchantId: 'mer_1', gateway: 'bank_direct', purpose: 'bank_credentials' };
const secret = '{"username":"acme","password":"S3cr3t-Pa55word!"}';

const refused = () => new InvalidCiphertextException({ message: 'InvalidCiphertextException', $metadata: {} });
const sameContext = (a: Record<string, string> = {}, b: Record<string, string> = {}) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([name, value]) => b[name] === value);

/**
 * A KMS that behaves like the real one where the box can tell: Encrypt returns an opaque blob, and Decrypt gives
 * the plaintext back only for that blob, with the same key and exactly the same encryption context.
 */
function fakeKms() {
  const mock = mockClient(KMSClient);
  const sealed = new Map<string, { keyId?: string; plaintext: Buffer; context?: Record<string, string> }>();
  mock.on(EncryptCommand).callsFake((input: { KeyId?: string; Plaintext?: Uint8Array; EncryptionContext?: Record<string, string> }) => {
    const blob = randomBytes(184);
    sealed.set(blob.toString('hex'), { keyId: input.KeyId, plaintext: Buffer.from(input.Plaintext!), context: input.EncryptionContext });
    return { KeyId: keyArn, CiphertextBlob: new Uint8Array(blob), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
  });
  mock.on(DecryptCommand).callsFake((input: { KeyId?: string; CiphertextBlob?: Uint8Array; EncryptionContext?: Record<string, string> }) => {
    const entry = sealed.get(Buffer.from(input.CiphertextBlob!).toString('hex'));
    if (!entry || entry.keyId !== input.KeyId || !sameContext(entry.context, input.EncryptionContext)) throw refused();
    return { KeyId: keyArn, Plaintext: new Uint8Array(entry.plaintext), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
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

  it('seals with one KMS Encrypt under the key ARN and the caller’s context, and opens with one Decrypt passing both again', async () => {
    const sealed = await box().encrypt(secret, context);
    expect(await box().decrypt(sealed, { ...context })).toBe(secret);

    const encrypt = kms.commandCalls(EncryptCommand);
    expect(encrypt).toHaveLength(1);
    const { Plaintext, ...encryptInput } = encrypt[0]!.args[0].input;
    expect(encryptInput).toEqual({ KeyId: keyArn, EncryptionContext: context });
    expect(Buffer.from(Plaintext!).toString('utf8')).toBe(secret);

    const decrypt = kms.commandCalls(DecryptCommand);
    expect(decrypt).toHaveLength(1);
    const { CiphertextBlob, ...decryptInput } = decrypt[0]!.args[0].input;
    expect(decryptInput).toEqual({ KeyId: keyArn, EncryptionContext: context });
    expect(Buffer.from(CiphertextBlob!)).toEqual(Buffer.from(sealed.slice('kms1:'.length), 'base64'));
  });

  it('stores the ciphertext blob as base64 behind a kms1: prefix, without the plaintext', async () => {
    const sealed = await box().encrypt(secret, context);
    expect(sealed).toMatch(/^kms1:[A-Za-z0-9+/]+={0,2}$/);
    expect(sealed).not.toContain('S3cr3t');
    expect(Buffer.from(sealed.slice('kms1:'.length), 'base64').includes(Buffer.from('S3cr3t-Pa55word!'))).toBe(false);
  });

  it('binds card numbers to their purpose, which the key policy condition (kms:EncryptionContext:purpose) reads', async () => {
    const cardContext = { purpose: 'card_number', merchantId: 'mer_1', vaultRef: 'vr_1' };
    await box().encrypt('4111111111111111', cardContext);
    expect(kms.commandCalls(EncryptCommand)[0]!.args[0].input.EncryptionContext).toEqual(cardContext);
  });

  it.each([
    ['another value', { ...context, merchantId: 'mer_2' }],
    ['a missing pair', { merchantId: 'mer_1', purpose: 'bank_credentials' }],
    ['an extra pair', { ...context, mode: 'live' }],
  ])('turns KMS’s refusal of a context with %s into a DecryptionError naming no value', async (_, wrong: Record<string, string>) => {
    const sealed = await box().encrypt(secret, context);
    const error = await box().decrypt(sealed, wrong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecryptionError);
    expect((error as Error).message).toMatch(/sealed for another record/);
    expect((error as Error).message).not.toMatch(/mer_|bank_direct|S3cr3t/);
    expect(kms.commandCalls(DecryptCommand)[0]!.args[0].input.EncryptionContext).toEqual(wrong);
  });

  it('rejects a tampered ciphertext', async () => {
    const bytes = Buffer.from((await box().encrypt(secret, context)).slice('kms1:'.length), 'base64');
    bytes[100] = bytes[100]! ^ 0x01;
    await expect(box().decrypt(`kms1:${bytes.toString('base64')}`, context)).rejects.toThrow(DecryptionError);
  });

  it('refuses another format (an Encryption SDK message) without calling KMS', async () => {
    await expect(box().decrypt('AgV4YqomZH8zKq5lN/vYfORIYxrY0UfaUzgpobmxfgxEwJEAgQADABVh', context)).rejects.toThrow(/not a kms1 ciphertext/);
    expect(kms.calls()).toHaveLength(0);
  });

  it('passes other KMS failures through unchanged: an outage or a denied grant is not a bad ciphertext', async () => {
    const sealed = await box().encrypt(secret, context);
    kms.on(DecryptCommand).rejects(new KMSInternalException({ message: 'internal error', $metadata: {} }));
    await expect(box().decrypt(sealed, context)).rejects.toThrow(KMSInternalException);
  });

  it('refuses a plaintext over KMS’s 4,096 bytes, and an empty context, before calling KMS', async () => {
    await expect(box().encrypt('x'.repeat(4097), context)).rejects.toThrow(/at most 4096 bytes/);
    await expect(box().encrypt('é'.repeat(2049), context)).rejects.toThrow(CryptoError);
    await expect(box().encrypt(secret, {})).rejects.toThrow(/encryption context is required/);
    expect(kms.calls()).toHaveLength(0);
    expect(await box().decrypt(await box().encrypt('x'.repeat(4096), context), context)).toHaveLength(4096);
  });

  it('fails when KMS answers without a ciphertext or a plaintext', async () => {
    kms.on(EncryptCommand).resolves({});
    await expect(box().encrypt(secret, context)).rejects.toThrow(/without a ciphertext/);
    kms.on(DecryptCommand).resolves({});
    await expect(box().decrypt('kms1:AAAA', context)).rejects.toThrow(/without a plaintext/);
  });

  it('refuses a key alias: the grants name the key ARN, and the client’s region comes from it', () => {
    expect(() => kmsSecretBox({ keyArn: 'alias/svc-secrets' })).toThrow(/must be a KMS key ARN/);
  });

  it('builds its own client in the key’s region when none is given', async () => {
    const sealed = await kmsSecretBox({ keyArn: keyArn.replace('us-east-1', 'eu-west-3') }).encrypt(secret, context);
    expect(sealed).toMatch(/^kms1:/);
    expect(await kms.call(0).thisValue.config.region()).toBe('eu-west-3');
  });
});
