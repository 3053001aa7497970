import { createDecipheriv } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CryptoError, DecryptionError } from '../../shared/crypto/errors.ts';
import { localSecretBox } from '../../shared/crypto/local-secret-box.ts';

const newKeyDir = () => join(mkdtempSync(join(tmpdir(), 'svc-keys-')), 'keys');
const context = { merchantId: 'mer_1', gateway: 'bank_direct', purpose: 'bank_credentials' };
const secret = '{"username":"acme","password":"S3cr3t-Pa55word!"}';
const bytesOf = (sealed: string) => Buffer.from(sealed.slice('local1:'.length), 'base64');

/** What every refusal must look like: a DecryptionError that names neither the secret nor a context value, nor carries a stack in its message. */
async function expectRefused(opening: Promise<string>) {
  const error = await opening.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DecryptionError);
  const { message } = error as Error;
  expect(message).toMatch(/could not be opened/);
  expect(message).not.toMatch(/S3cr3t|mer_|bank_direct|\n\s+at /);
}

describe('localSecretBox', () => {
  it('opens what it sealed, with the same context in any order', async () => {
    const box = localSecretBox(newKeyDir());
    const sealed = await box.encrypt(secret, context);
    expect(await box.decrypt(sealed, { purpose: 'bank_credentials', gateway: 'bank_direct', merchantId: 'mer_1' })).toBe(secret);
  });

  it('is AES-256-GCM with the key file, a 12-byte IV and the sorted context as additional data', async () => {
    const keyDir = newKeyDir();
    const sealed = await localSecretBox(keyDir).encrypt(secret, context);
    expect(sealed).toMatch(/^local1:[A-Za-z0-9+/]+={0,2}$/);
    const bytes = bytesOf(sealed);
    expect(bytes).toHaveLength(12 + Buffer.byteLength(secret) + 16);
    const decipher = createDecipheriv('aes-256-gcm', readFileSync(join(keyDir, 'secret-box.key')), bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(JSON.stringify([['gateway', 'bank_direct'], ['merchantId', 'mer_1'], ['purpose', 'bank_credentials']])));
    decipher.setAuthTag(bytes.subarray(-16));
    expect(Buffer.concat([decipher.update(bytes.subarray(12, -16)), decipher.final()]).toString()).toBe(secret);
  });

  it('uses a fresh IV each time: the same secret never seals to the same ciphertext', async () => {
    const box = localSecretBox(newKeyDir());
    const [a, b] = await Promise.all([box.encrypt(secret, context), box.encrypt(secret, context)]);
    expect(bytesOf(a).subarray(0, 12)).not.toEqual(bytesOf(b).subarray(0, 12));
    expect(a).not.toBe(b);
  });

  it('creates its key file on first use with owner-only permissions, and a second box over it opens the first one’s secrets', async () => {
    const keyDir = newKeyDir();
    const sealed = await localSecretBox(keyDir).encrypt(secret, context);
    expect(statSync(join(keyDir, 'secret-box.key')).mode & 0o777).toBe(0o600);
    expect(statSync(keyDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(keyDir, 'secret-box.key')).size).toBe(32);
    expect(await localSecretBox(keyDir).decrypt(sealed, context)).toBe(secret);
  });

  it('does not contain the plaintext', async () => {
    const sealed = await localSecretBox(newKeyDir()).encrypt(secret, context);
    expect(sealed).not.toContain('S3cr3t');
    expect(bytesOf(sealed).includes(Buffer.from('S3cr3t-Pa55word!'))).toBe(false);
  });

  it.each([
    ['another value', { ...context, merchantId: 'mer_2' }],
    ['a missing pair', { merchantId: 'mer_1', purpose: 'bank_credentials' }],
    ['an extra pair', { ...context, mode: 'live' }],
    ['a value moved to another name', { merchantId: 'bank_direct', gateway: 'mer_1', purpose: 'bank_credentials' }],
    ['no context', {}],
  ])('rejects a context with %s', async (_, wrong: Record<string, string>) => {
    const box = localSecretBox(newKeyDir());
    await expectRefused(box.decrypt(await box.encrypt(secret, context), wrong));
  });

  it('rejects a secret sealed with another key', async () => {
    const sealed = await localSecretBox(newKeyDir()).encrypt(secret, context);
    await expectRefused(localSecretBox(newKeyDir()).decrypt(sealed, context));
  });

  it('rejects a tampered ciphertext: a flipped bit in the IV, the encrypted secret or the tag, or a cut', async () => {
    const box = localSecretBox(newKeyDir());
    const bytes = bytesOf(await box.encrypt(secret, context));
    for (const index of [0, 20, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[index] = tampered[index]! ^ 0x01;
      await expectRefused(box.decrypt(`local1:${tampered.toString('base64')}`, context));
    }
    await expectRefused(box.decrypt(`local1:${bytes.subarray(0, bytes.length - 1).toString('base64')}`, context));
    await expectRefused(box.decrypt('local1:', context));
  });

  it('refuses a secret of the Encryption SDK format (sandbox data from before it was replaced), saying to delete .sandbox/', async () => {
    // Sealed by the former Encryption SDK SecretBox over a local key (a throwaway value).
    const esdkMessage =
      'AgV4YqomZH8zKq5lN/vYfORIYxrY0UfaUzgpobmxfgxEwJEAgQADABVhd3MtY3J5cHRvLXB1YmxpYy1rZXkAREEzL1o1T1ZmeTk2bzdJclppZnBiczE4STZPNEJ0NGwwa2dHU3VKSnlLWVR2eWlOcWd0S1pJclhxc1FuVS9DaWQyUT09AAptZXJjaGFudElkAAVtZXJfMQAHcHVycG9zZQAEdGVzdAABAAlzdmMtbG9jYWwAHnNlY3JldC1ib3gAAACAAAAADL142wOJCuMdyzobDwAwsvTfktlN4cuSrI75JtunB+aku/N4bBqC7ipkZIkTgFGOF0wo29PIZcIbsN7LmDISAgAAEAB0kiyigz0gIoP5lSKlyeVOa+GP0jAnPL1gUw3qrqmt9OmlEAYLjM9jFfc/8wTLKKz/////AAAAAQAAAAAAAAAAAAAAAQAAAAGQ1LKjJFq4/Wbfi2hfhpoEEgBmMGQCMEoRbfdxiR1qyycQL/fPvMVPZnBPogsqm7whri8ju/iJJs4kcVIzQnMLWzxI+T2zTQIwQzpuzPVkLAN94sU3BalXdCCbjCmH88c0svvuVNhHjrzNkipRdR0OKLIT4BnISwKH';
    const opening = localSecretBox(newKeyDir()).decrypt(esdkMessage, { merchantId: 'mer_1', purpose: 'test' });
    await expect(opening).rejects.toThrow(DecryptionError);
    await expect(opening).rejects.toThrow(/not a local1 ciphertext.*delete \.sandbox\//);
  });

  it('refuses what KMS would: an empty context, a plaintext over 4,096 bytes', async () => {
    const box = localSecretBox(newKeyDir());
    await expect(box.encrypt(secret, {})).rejects.toThrow(/encryption context is required/);
    await expect(box.encrypt('x'.repeat(4097), context)).rejects.toThrow(CryptoError);
    expect(await box.decrypt(await box.encrypt('x'.repeat(4096), context), context)).toHaveLength(4096);
  });
});
