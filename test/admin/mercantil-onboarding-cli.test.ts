import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERCANTIL_TEST_DATA } from '../../infra/sandbox/mercantil/mercantil-simulator.ts';
import { CLI_TEST_TIMEOUT_MS, runAdminCli } from '../support/admin-cli.ts';
import { card, checkoutCharge, openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

// The CLI seals with the sandbox's own local keys, as `npm start` and `npm run admin` share SANDBOX_DIR.
const sandboxDir = mkdtempSync(join(tmpdir(), 'svc-mercantil-cli-'));
const admin = (...args: string[]) => runAdminCli([...args, '--json'], { sandboxDir });

describe('putting a merchant on Banco Mercantil with the admin CLI (docs/connectors.md)', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ keyDir: join(sandboxDir, 'keys') });
  });
  afterAll(() => sandbox.stop());

  it('sets VES on mercantil, test mode on, loads the simulator credentials (refusing an incomplete file), then charges through the simulator', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const incomplete = join(sandboxDir, 'incomplete.json');
    writeFileSync(incomplete, JSON.stringify({ clientId: 'changeme', integratorId: 31, merchantId: 123456, terminalId: 'abcde' }));

    const gateway = await admin('merchant', 'gateway', '--merchant', merchant.id, '--currency', 'VES', '--gateway', 'mercantil');
    const testMode = await admin('test-mode', '--merchant', merchant.id, '--gateway', 'mercantil', '--on');
    const refused = await admin('credentials', 'load', '--merchant', merchant.id, '--gateway', 'mercantil', '--file', incomplete);
    const loaded = await admin('credentials', 'load', '--merchant', merchant.id, '--gateway', 'mercantil', '--file', 'infra/sandbox/mercantil/test-credentials.json');

    expect([gateway.code, testMode.code, loaded.code]).toEqual([0, 0, 0]);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain('secretKey is missing');
    // The sandbox caches a merchant for its key cache TTL: read it fresh.
    expect(await sandbox.deps.merchants.get(merchant.id)).toMatchObject({ gateways: { VES: 'mercantil' }, testMode: { mercantil: true }, credentialsLoaded: { mercantil: true } });

    sandbox.advance(60);
    const session = await openSession(sandbox, keys.secretTest);
    const paid = await checkoutCharge(sandbox, session.reference, { card: card(MERCANTIL_TEST_DATA.credit.cardNumber, { expMonth: 1, expYear: 2025, cvv: '123' }) });
    expect(paid.body).toMatchObject({ transaction: { status: 'approved' } });
    expect(sandbox.mercantil.calls('pay').at(-1)!.clientId).toBe('changeme');
  });
});
