import { GenerateMacCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { kmsFingerprinter } from '../../shared/crypto/kms-fingerprinter.ts';

// KMS has no local engine: the client is mocked here, and the local stand-in is tested in local-fingerprinter.test.ts.
const kms = mockClient(KMSClient);
afterEach(() => kms.reset());
afterAll(() => kms.restore());

const keyId = 'arn:aws:kms:us-east-1:111122223333:key/0b5f7f6e-hmac';

describe('kmsFingerprinter', () => {
  it('asks KMS for an HMAC_SHA_256 MAC of the UTF-8 value with the configured key and returns it as lowercase hex', async () => {
    kms.on(GenerateMacCommand).resolves({ Mac: Uint8Array.from([0x00, 0xab, 0xff, 0x10]), KeyId: keyId, MacAlgorithm: 'HMAC_SHA_256' });
    const fingerprint = await kmsFingerprinter({ keyId, kms: new KMSClient({ region: 'us-east-1' }) }).fingerprint('José 4111');

    expect(fingerprint).toBe('00abff10');
    const calls = kms.commandCalls(GenerateMacCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(input.KeyId).toBe(keyId);
    expect(input.MacAlgorithm).toBe('HMAC_SHA_256');
    expect(Buffer.from(input.Message!)).toEqual(Buffer.from('José 4111', 'utf8'));
  });

  it('calls KMS for every fingerprint: nothing is cached', async () => {
    kms.on(GenerateMacCommand).resolves({ Mac: Uint8Array.from([1]) });
    const fingerprinter = kmsFingerprinter({ keyId, kms: new KMSClient({ region: 'us-east-1' }) });
    await fingerprinter.fingerprint('same');
    await fingerprinter.fingerprint('same');
    expect(kms.commandCalls(GenerateMacCommand)).toHaveLength(2);
  });

  it('fails when KMS answers without a MAC', async () => {
    kms.on(GenerateMacCommand).resolves({});
    await expect(kmsFingerprinter({ keyId, kms: new KMSClient({ region: 'us-east-1' }) }).fingerprint('x')).rejects.toThrow(/without a MAC/);
  });
});
