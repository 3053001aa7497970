import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/sandbox/free-port.ts';
import { createSvcClient, type SvcClient } from '../../shared/client/index.ts';
import { signatureHeader } from '../../shared/webhooks/signature.ts';
import { registerWebhookEndpoint, startMerchantServer, type MerchantServer } from '../../examples/merchant-server/merchant-server.ts';
import { card, checkoutCharge, TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

/** The example shop, end to end against the sandbox: order, checkout, payment, signed webhook, one shipment. */
describe('example merchant server', () => {
  let sandbox: TestSandbox;
  let shop: MerchantServer;
  let svc: SvcClient;
  let secret = '';
  let endpointId = '';

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const { keys } = await sandbox.newMerchant();
    svc = createSvcClient({ baseUrl: sandbox.url, secretKey: keys.secretTest });
    shop = await startMerchantServer({ svc, webhookSecret: () => secret });
    secret = await registerWebhookEndpoint(svc, shop.url);
    endpointId = (await svc.webhookEndpoints.list()).data[0]!.id;
  });
  afterAll(async () => {
    await shop.close();
    await sandbox.stop();
  });

  const payOrder = async (orderId: string) => {
    const res = await fetch(`${shop.url}/orders/${orderId}/pay?amountMinor=2500`, { method: 'POST', redirect: 'manual' });
    expect(res.status).toBe(303);
    const checkoutUrl = new URL(res.headers.get('location')!);
    expect(`${checkoutUrl.origin}${checkoutUrl.pathname}`).toBe(`${sandbox.url.replace('127.0.0.1', 'localhost')}/checkout`);
    return checkoutUrl.searchParams.get('session')!;
  };
  const order = async (id: string) => (await fetch(`${shop.url}/orders/${id}`)).json();

  it('ships an order exactly once after the buyer pays, whatever the redeliveries', async () => {
    const reference = await payOrder('42');
    expect(await payOrder('42')).toBe(reference); // a second click reuses the session (Idempotency-Key)
    expect(await order('42')).toMatchObject({ status: 'awaiting_payment', fulfilments: 0 });

    const paid = await checkoutCharge(sandbox, reference, { card: card(TEST_CARDS.visa), document: { type: 'V', id: '12345678' } });
    expect(paid.body.transaction.status).toBe('approved');
    await sandbox.background.drain();
    expect(await order('42')).toMatchObject({ status: 'paid', sessionReference: reference, fulfilments: 1 });

    // The same event delivered again (a manual retry): still one shipment.
    const deliveries = await svc.webhookDeliveries.list({ endpointId });
    const approved = deliveries.data.find((d) => d.eventType === 'charge.approved')!;
    expect(approved.state).toBe('succeeded');
    await svc.webhookDeliveries.retry(approved.id);
    await sandbox.background.drain();
    expect((await svc.webhookDeliveries.get(approved.id)).attemptCount).toBe(2);
    expect(await order('42')).toMatchObject({ fulfilments: 1 });
  });

  it('does not ship on a declined charge nor on a sample charge.approved', async () => {
    const reference = await payOrder('43');
    await checkoutCharge(sandbox, reference, { card: card(TEST_CARDS.insufficientFunds) });
    await svc.webhookEndpoints.test(endpointId, { type: 'charge.approved' });
    await sandbox.background.drain();
    const deliveries = await svc.webhookDeliveries.list({ endpointId, limit: 20 });
    expect(deliveries.data.filter((d) => d.state === 'succeeded').map((d) => d.eventType)).toEqual(expect.arrayContaining(['charge.declined', 'charge.approved']));
    expect(await order('43')).toMatchObject({ status: 'awaiting_payment', fulfilments: 0 });
  });

  it('refuses a webhook whose signature does not match, and ships nothing', async () => {
    const reference = await payOrder('44');
    const forged = JSON.stringify({ id: 'evt_forged', type: 'charge.approved', createdAt: new Date().toISOString(), env: 'test', data: { sessionReference: reference } });
    const res = await fetch(`${shop.url}/webhooks`, { method: 'POST', body: forged, headers: { 'svc-signature': signatureHeader('whsec_not_the_secret', forged, Math.floor(Date.now() / 1000)) } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'signature_mismatch' });
    expect(await order('44')).toMatchObject({ fulfilments: 0 });
  });

  it('reuses its saved endpoint on a restart, and registers anew only when that endpoint is gone', async () => {
    const { keys } = await sandbox.newMerchant();
    const own = createSvcClient({ baseUrl: sandbox.url, secretKey: keys.secretTest });
    const stateFile = join(mkdtempSync(join(tmpdir(), 'example-shop-')), 'endpoint.json');
    const first = await registerWebhookEndpoint(own, shop.url, { stateFile });
    expect(await registerWebhookEndpoint(own, shop.url, { stateFile })).toBe(first);
    expect((await own.webhookEndpoints.list()).data).toHaveLength(1);
    expect(statSync(stateFile).mode & 0o777).toBe(0o600);

    await own.webhookEndpoints.delete((await own.webhookEndpoints.list()).data[0]!.id);
    const second = await registerWebhookEndpoint(own, shop.url, { stateFile });
    expect(second).not.toBe(first);
    expect((await own.webhookEndpoints.list()).data).toHaveLength(1);
  });

  it('says plainly when the sandbox is not where SVC_URL (or PORT) says, with no stack trace', async () => {
    const closedPort = await freePort();
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'examples/merchant-server/main.ts'], {
      env: { ...process.env, SVC_SECRET_KEY: 'sk_test_unused', PORT: String(closedPort), SHOP_PORT: '0', SANDBOX_DIR: mkdtempSync(join(tmpdir(), 'example-shop-')) },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`nothing answers at http://localhost:${closedPort}: start the sandbox with npm start, or set SVC_URL (or PORT)`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 90_000);
});
