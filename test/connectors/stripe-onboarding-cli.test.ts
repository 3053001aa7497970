import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS, runAdminCli } from '../support/admin-cli.ts';
import { card, checkoutCharge, openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

// The CLI seals with the sandbox's own local keys, as `npm start` and `npm run admin` share SANDBOX_DIR.
const sandboxDir = mkdtempSync(join(tmpdir(), 'svc-stripe-cli-'));
const admin = (...args: string[]) => runAdminCli([...args, '--json'], { sandboxDir });

describe('putting a merchant on Stripe with the admin CLI (docs/connectors.md#stripe)', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ keyDir: join(sandboxDir, 'keys') });
  });
  afterAll(() => sandbox.stop());

  it('creates the merchant, sets USD on stripe, test mode on, loads the simulator key (refusing a publishable key), then a test session pays through the simulator', async () => {
    const created = await admin('merchant', 'create', '--name', 'Tienda Stripe');
    expect(created.code, created.stderr).toBe(0);
    const { merchantId, secretTest } = JSON.parse(created.stdout) as { merchantId: string; secretTest: string };
    const publishable = join(sandboxDir, 'publishable.json');
    writeFileSync(publishable, JSON.stringify({ secretKey: 'pk_test_simulator0000000001' }));

    const gateway = await admin('merchant', 'gateway', '--merchant', merchantId, '--currency', 'USD', '--gateway', 'stripe');
    const testMode = await admin('test-mode', '--merchant', merchantId, '--gateway', 'stripe', '--on');
    const refused = await admin('credentials', 'load', '--merchant', merchantId, '--gateway', 'stripe', '--file', publishable);
    const loaded = await admin('credentials', 'load', '--merchant', merchantId, '--gateway', 'stripe', '--file', 'infra/sandbox/stripe/test-credentials.json');

    expect([gateway.code, testMode.code, loaded.code]).toEqual([0, 0, 0]);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain('secretKey is invalid');
    expect(refused.stdout + refused.stderr).not.toContain('pk_test_simulator');
    expect(await sandbox.deps.merchants.get(merchantId)).toMatchObject({ gateways: { USD: 'stripe' }, testMode: { stripe: true }, credentialsLoaded: { stripe: true } });

    // The sandbox caches a merchant for its key cache TTL: past it, the change is seen.
    sandbox.advance(60);
    const session = await openSession(sandbox, secretTest, { amountMinor: 1999, currency: 'USD' });
    const paid = await checkoutCharge(sandbox, session.reference, { card: card('4242424242424242'), document: null });
    expect(paid.body).toMatchObject({ transaction: { status: 'approved' }, session: { status: 'completed' } });
    expect(sandbox.stripe.intentOf(session.reference)).toMatchObject({ status: 'succeeded', amount_received: 1999, livemode: false });
  });
});
