/**
 * The two steps every change of an endpoint's signing secret shares (create, dashboard rotation): the secret sealed
 * for its endpoint only, and the versioned save that answers 409 endpoint_changed when another request got there first.
 * Against the sandbox's real secret box and DynamoDB Local.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DecryptionError } from '../../shared/crypto/errors.ts';
import { ConflictError } from '../../shared/errors.ts';
import { secretContext } from '../../shared/webhooks/endpoint.ts';
import { newSigningSecret } from '../../shared/webhooks/signing-secret.ts';
import { saveEndpoint } from '../../shared/webhooks/webhook-access.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('newSigningSecret and saveEndpoint', () => {
  let sandbox: TestSandbox;
  let merchantId: string;
  let secretKey: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const { merchant, keys } = await sandbox.newMerchant();
    merchantId = merchant.id;
    secretKey = keys.secretTest;
  }, 60_000);
  afterAll(() => sandbox?.stop());

  it('makes a fresh whsec_ secret sealed for its endpoint: it opens there and nowhere else', async () => {
    const endpoint = { id: 'we_sealed_1', merchantId };
    const first = await newSigningSecret(sandbox.deps.secretBox, endpoint);
    const second = await newSigningSecret(sandbox.deps.secretBox, endpoint);
    expect(first.secret).toMatch(/^whsec_/);
    expect(second.secret).not.toBe(first.secret);
    expect(first.secretCiphertext).not.toContain(first.secret);
    expect(await sandbox.deps.secretBox.decrypt(first.secretCiphertext, secretContext(endpoint))).toBe(first.secret);
    await expect(sandbox.deps.secretBox.decrypt(first.secretCiphertext, secretContext({ id: 'we_other', merchantId }))).rejects.toBeInstanceOf(DecryptionError);
  });

  it('saves a change over the version read, and answers 409 endpoint_changed to a save over a stale version', async () => {
    const created = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: secretKey, body: { url: 'http://127.0.0.1:9/hooks' } });
    expect(created.status).toBe(201);
    const read = (await sandbox.deps.webhookEndpoints.get(created.body.id))!;
    const rotated = await newSigningSecret(sandbox.deps.secretBox, read);
    await saveEndpoint(sandbox.deps, { ...read, secretCiphertext: rotated.secretCiphertext, version: read.version + 1 }, read.version);

    const stale = saveEndpoint(sandbox.deps, { ...read, description: 'lost update', version: read.version + 1 }, read.version);
    await expect(stale).rejects.toBeInstanceOf(ConflictError);
    await expect(stale).rejects.toMatchObject({ statusCode: 409, code: 'endpoint_changed' });
    const stored = (await sandbox.deps.webhookEndpoints.get(read.id))!;
    expect(stored).toMatchObject({ version: read.version + 1, description: null, secretCiphertext: rotated.secretCiphertext });
  });
});
