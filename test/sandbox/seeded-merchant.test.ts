import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSandboxMerchant } from '../../infra/sandbox/seed-merchant.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

/** The merchant `npm start` seeds (bin/sandbox.ts): buyers see its name on the Spanish checkout. */
describe('the seeded sandbox merchant', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it('has a Spanish name, which the checkout shows, and a restart keeps the same merchant and keys', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-seed-')), 'merchant.json');
    const seeded = await seedSandboxMerchant(sandbox.deps, file, new Date(sandbox.clock.now()));

    const session = await sandbox.request('POST', '/v1/sessions', { key: seeded.keys.secretTest, body: { amountMinor: 1050, currency: 'VES' } });
    const page = await sandbox.request('GET', `/v1/checkout/sessions/${session.body.reference}`);
    expect(page.body.merchant.businessName).toBe('Tienda de prueba');
    expect(await seedSandboxMerchant(sandbox.deps, file, new Date(sandbox.clock.now()))).toEqual(seeded);
  });
});
