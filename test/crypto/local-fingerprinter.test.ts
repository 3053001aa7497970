import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyFileError } from '../../shared/crypto/errors.ts';
import { localFingerprinter } from '../../shared/crypto/local-fingerprinter.ts';

const newKeyDir = () => mkdtempSync(join(tmpdir(), 'svc-keys-'));

describe('localFingerprinter', () => {
  it('is HMAC-SHA256 of the value with the key file, as 64 lowercase hex characters', async () => {
    const keyDir = newKeyDir();
    const fingerprint = await localFingerprinter(keyDir).fingerprint('4111111111111111');
    const key = readFileSync(join(keyDir, 'fingerprint.key'));
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint).toBe(createHmac('sha256', key).update('4111111111111111').digest('hex'));
    expect(statSync(join(keyDir, 'fingerprint.key')).mode & 0o777).toBe(0o600);
  });

  it('is stable across instances over the same key file and differs between values', async () => {
    const keyDir = newKeyDir();
    const first = await localFingerprinter(keyDir).fingerprint('4111111111111111');
    expect(await localFingerprinter(keyDir).fingerprint('4111111111111111')).toBe(first);
    expect(await localFingerprinter(keyDir).fingerprint('4111111111111112')).not.toBe(first);
  });

  it('is keyed: another key file gives another fingerprint', async () => {
    const [a, b] = await Promise.all([newKeyDir(), newKeyDir()].map((dir) => localFingerprinter(dir).fingerprint('4111111111111111')));
    expect(a).not.toBe(b);
  });

  it('refuses a key file of the wrong size', () => {
    const keyDir = newKeyDir();
    writeFileSync(join(keyDir, 'fingerprint.key'), 'short');
    expect(() => localFingerprinter(keyDir)).toThrow(KeyFileError);
  });
});
