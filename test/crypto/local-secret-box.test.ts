import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DecryptionError } from '../../shared/crypto/errors.ts';
import { localSecretBox } from '../../shared/crypto/local-secret-box.ts';

const newKeyDir = () => join(mkdtempSync(join(tmpdir(), 'svc-keys-')), 'keys');
const context = { merchantId: 'mer_1', gateway: 'bank_direct', purpose: 'bank_credentials' };
const secret = '{"username":"acme","password":"S3cr3t-Pa55word!"}';

describe('localSecretBox', () => {
  it('opens what it sealed, with the same context', async () => {
    const box = localSecretBox(newKeyDir());
    const sealed = await box.encrypt(secret, context);
    expect(await box.decrypt(sealed, { ...context })).toBe(secret);
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
    expect(Buffer.from(sealed, 'base64').includes(Buffer.from('S3cr3t-Pa55word!'))).toBe(false);
  });

  it.each([
    ['another value', { ...context, merchantId: 'mer_2' }],
    ['a missing pair', { merchantId: 'mer_1', purpose: 'bank_credentials' }],
    ['an extra pair', { ...context, mode: 'live' }],
    ['no context', {}],
  ])('rejects a context with %s', async (_, wrong: Record<string, string>) => {
    const box = localSecretBox(newKeyDir());
    const sealed = await box.encrypt(secret, context);
    await expect(box.decrypt(sealed, wrong)).rejects.toThrow(/sealed for another record/);
  });

  it('rejects a tampered ciphertext', async () => {
    const box = localSecretBox(newKeyDir());
    const bytes = Buffer.from(await box.encrypt(secret, context), 'base64');
    // One byte in the header, one in the middle, one in the signature at the end: each must be noticed.
    for (const index of [40, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[index] = tampered[index]! ^ 0x01;
      await expect(box.decrypt(tampered.toString('base64'), context)).rejects.toThrow(/could not be decrypted/);
    }
  });

  it('rejects a secret sealed with another key', async () => {
    const sealed = await localSecretBox(newKeyDir()).encrypt(secret, context);
    await expect(localSecretBox(newKeyDir()).decrypt(sealed, context)).rejects.toThrow(DecryptionError);
  });

  it('refuses to seal without a context', async () => {
    await expect(localSecretBox(newKeyDir()).encrypt(secret, {})).rejects.toThrow(/encryption context is required/);
  });
});
