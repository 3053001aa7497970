import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routes } from '../../shared/routes.ts';
import { routeWiringProblems } from './harness/api-gateway.ts';
import { deployStack, type DeployedStack } from './harness/deployed-stack.ts';
import { EVENT_SOURCE_AGENT } from './harness/event-sources.ts';
import { deniedCalls } from './harness/iam-check.ts';
import { functionsNotRun } from './harness/local-cloud.ts';
import { verifyWebhookSignature } from '../../shared/webhooks/signature.ts';
import { card, DOCUMENT, errorRequest, VISA, WITHOUT_ERROR_CASE, WITHOUT_SUCCESS_SCENARIO, LATE_SCENARIOS, newMerchant, successScenarios, type ScenarioState } from './harness/scenarios.ts';
import { sdkLayer, type SdkVariant } from './harness/sdk-layer.ts';
import { resolveValue } from './harness/template.ts';
import { withAdminStores } from './harness/admin-stores.ts';
import { createMerchant } from '../../shared/admin/merchant-admin.ts';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { MERCANTIL_TEST_DATA } from '../../infra/sandbox/mercantil/mercantil-simulator.ts';

const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
const isErrorShape = (body: any) => typeof body?.statusCode === 'number' && typeof body?.code === 'string' && typeof body?.message === 'string';

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The synthesized stack run offline with the SDK variant (test/aws/*.aws.ts call this once per variant): every
 * function of the template under aws-lambda-ric, every route, the payment and webhook flows, timed expiry, and the
 * IAM comparison of every AWS call made.
 */
export function describeDeployedStack(variant: SdkVariant) {
  describe(`the synthesized stack under aws-lambda-ric, SDK ${variant}`, () => {
    let stack: DeployedStack;
    const state = { shared: new Map() } as ScenarioState;
    let expiring: string;
    let secret: string;
    /** Webhooks the receiver got with a valid Svc-Signature for the endpoint's secret, by event type. */
    const signedEvents = () =>
      stack.receiver.received
        .filter((r) => verifyWebhookSignature({ header: String(r.headers['svc-signature']), rawBody: r.rawBody, secret }).valid)
        .map((r) => JSON.parse(r.rawBody) as { id: string; type: string; data: Record<string, unknown> });

    /** A function's last lines of output, for a failure's message. */
    const lastLogs = (logicalId: string) => (stack.logs.get(logicalId) ?? []).slice(-5).map((l) => l.slice(0, 600)).join('\n');

    beforeAll(async () => {
      stack = await deployStack({ assemblyDir: inject('assemblyDir'), dynamoEndpoint: inject('awsDynamoEndpoint') }, variant);
      ({ id: state.merchantId, keys: state.keys } = await newMerchant(stack));
      state.receiverUrl = stack.receiver.url;
      const endpoint = await stack.api.request('POST', '/v1/webhooks/endpoints', { key: state.keys.secretTest, body: { url: `${stack.receiver.url}/svc` } });
      expect(endpoint.status, endpoint.text).toBe(201);
      state.endpointId = endpoint.body.id;
      secret = endpoint.body.secret;
      // Timed expiry takes its real two minutes (the functions use real time): started first, checked last.
      const created = await stack.api.request('POST', '/v1/sessions', { key: state.keys.secretTest, body: { amountMinor: 700, currency: 'VES', expiresInMinutes: 2 } });
      expect(created.status, created.text).toBe(201);
      expiring = created.body.reference;
    });

    afterAll(async () => {
      await stack?.stop();
    });

    it('runs only the Node.js 22 functions and leaves out nothing but CDK deploy-time providers', () => {
      expect(stack.cloud.functions.length).toBeGreaterThan(20);
      for (const skipped of functionsNotRun(stack.cloud.template)) expect(skipped.path, skipped.logicalId).toMatch(/\/Custom::|\/Custom[A-Z]/);
    });

    it('wires every route of the manifest, and nothing else, to its own function in the template', () => {
      expect(stack.api.routes.length).toBeGreaterThan(15);
      expect(new Set(stack.api.routes.map(key)).size).toBe(stack.api.routes.length);
      expect(routeWiringProblems(stack.cloud.template, stack.api.routes, routes)).toEqual([]);
    });

    it('creates a session, pays it with a test card and stores the card', async () => {
      const created = await stack.api.request('POST', '/v1/sessions', { key: state.keys.secretTest, body: { amountMinor: 1050, currency: 'VES', customerRef: 'cus_aws' } });
      expect(created.status, created.text).toBe(201);
      const charge = await stack.api.request('POST', '/v1/checkout/charge', {
        body: { sessionReference: created.body.reference, card: card(), document: DOCUMENT },
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      });
      expect(charge.status, `${charge.text}\n${lastLogs(stack.api.routes.find((r) => r.path === '/v1/checkout/charge')!.functionLogicalId)}`).toBe(200);
      expect(charge.body.transaction.status).toBe('approved');
      expect(charge.text).not.toContain('4111111111111111');
      state.paidSession = created.body.reference;
      state.transaction = charge.body.transaction.reference;
      const cards = await stack.api.request('GET', '/v1/cards?customerRef=cus_aws', { key: state.keys.secretTest });
      expect(cards.status, cards.text).toBe(200);
      expect(cards.body).toHaveLength(1);
      state.cardToken = cards.body[0].svcToken;
      expect(state.cardToken).toMatch(/^tok_svc_/);
    });

    it('pays a test USD session on Stripe through its simulator: the functions create, confirm and capture the PaymentIntent', async () => {
      const merchant = await withAdminStores(stack, async (stores) => {
        const { merchant, keys } = await createMerchant(stores, { name: 'AWS harness Stripe merchant', now: new Date() });
        await stores.merchants.update(merchant.id, { gateways: { VES: 'bank_direct', USD: 'stripe' }, testMode: { stripe: true } });
        await loadBankCredentials(stores, merchant.id, 'stripe', JSON.stringify({ secretKey: 'sk_test_awsharness000001' }));
        return { keys };
      });
      const created = await stack.api.request('POST', '/v1/sessions', { key: merchant.keys.secretTest, body: { amountMinor: 2500, currency: 'USD' } });
      expect(created.status, created.text).toBe(201);
      const charge = await stack.api.request('POST', '/v1/checkout/charge', {
        body: { sessionReference: created.body.reference, card: { ...card(), number: '4242424242424242' } },
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      });
      expect(charge.status, `${charge.text}\n${lastLogs(stack.api.routes.find((r) => r.path === '/v1/checkout/charge')!.functionLogicalId)}`).toBe(200);
      expect(charge.body.transaction.status).toBe('approved');
      expect(stack.stripe.intentOf(created.body.reference)).toMatchObject({ status: 'succeeded', amount_received: 2500, livemode: false });
      expect(stack.stripe.calls().map((c) => c.operation)).toEqual(expect.arrayContaining(['create_intent', 'confirm', 'capture']));
    });

    it('pays a test VES session on Banco Mercantil through its simulator: the charge function sends pay with the caller\'s address and browser', async () => {
      const merchant = await withAdminStores(stack, async (stores) => {
        const { merchant, keys } = await createMerchant(stores, { name: 'AWS harness Mercantil merchant', now: new Date() });
        await stores.merchants.update(merchant.id, { gateways: { VES: 'mercantil', USD: 'card_processor' }, testMode: { mercantil: true } });
        await loadBankCredentials(stores, merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
        return { keys };
      });
      const created = await stack.api.request('POST', '/v1/sessions', { key: merchant.keys.secretTest, body: { amountMinor: 1050, currency: 'VES' } });
      expect(created.status, created.text).toBe(201);
      const charge = await stack.api.request('POST', '/v1/checkout/charge', {
        body: { sessionReference: created.body.reference, card: { ...card(), number: MERCANTIL_TEST_DATA.credit.cardNumber, cvv: '123' }, document: DOCUMENT },
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      });
      expect(charge.status, `${charge.text}\n${lastLogs(stack.api.routes.find((r) => r.path === '/v1/checkout/charge')!.functionLogicalId)}`).toBe(200);
      expect(charge.body.transaction.status).toBe('approved');
      const pay = stack.mercantil.calls('pay').at(-1)!;
      expect(pay.body.transaction).toMatchObject({ amount: '10.50', payment_method: 'tdc' });
      // API Gateway's requestContext.identity, as the harness's REST API sets it.
      expect(pay.body.client_identify).toEqual({ ipaddress: '203.0.113.7', browser_agent: 'aws-harness' });
    });

    it('delivers the payment\'s webhooks signed, through the stream, the dispatcher, the delivery queue and the sender', async () => {
      const types = await until(
        'charge.approved and card.stored at the receiver',
        () => {
          const got = signedEvents().filter((e) => JSON.stringify(e.data).includes(state.paidSession!) || e.type === 'card.stored').map((e) => e.type);
          return got.includes('charge.approved') && got.includes('card.stored') ? got : undefined;
        },
        90_000,
      );
      expect(types).toContain('charge.approved');
      expect(stack.receiver.received.map((r) => r.rawBody).join('\n')).not.toContain(VISA);
    });

    it('retries a delivery the receiver refused, after the delay the sender set on the message\'s visibility', async () => {
      const before = stack.receiver.received.length;
      stack.receiver.failNext(503);
      const test = await stack.api.request('POST', `/v1/webhooks/endpoints/${state.endpointId}/test`, { key: state.keys.secretTest, body: {} });
      expect(test.status, test.text).toBeLessThan(300);
      // The first retry waits 30 s (shared/webhooks/retry-schedule.ts) in the queue, hidden by ChangeMessageVisibility.
      const refused = await until('a refused delivery', () => stack.receiver.received.slice(before).find((r) => r.status === 503), 60_000);
      const eventId = JSON.parse(refused.rawBody).id as string;
      await until('its retry, accepted', () => stack.receiver.received.find((r) => r.status === 200 && JSON.parse(r.rawBody).id === eventId), 120_000);
      expect(stack.cloud.recorder.calls.some((c) => c.action === 'sqs:ChangeMessageVisibility')).toBe(true);
    });

    it('answers every route of the template once with success and once with an error', async () => {      const failures: string[] = [];
      const withoutSuccess: string[] = [];
      const ordered = [...stack.api.routes].sort((a, b) => Number(LATE_SCENARIOS.includes(key(a))) - Number(LATE_SCENARIOS.includes(key(b))));
      for (const route of ordered) {
        const error = await errorRequest(stack, route.method, route.path);
        if (WITHOUT_ERROR_CASE.includes(key(route))) expect(error.status, `${key(route)} needs no input`).toBe(200);
        else if (error.status < 400 || error.status >= 500 || !isErrorShape(error.body)) failures.push(`${key(route)} error case: ${error.status} ${error.text.slice(0, 300)}`);
        const scenario = successScenarios[key(route)];
        if (!scenario) {
          withoutSuccess.push(key(route));
          continue;
        }
        const ok = await scenario(stack, state);
        if (ok.status >= 300) failures.push(`${key(route)} success case: ${ok.status} ${ok.text.slice(0, 300)}\n${lastLogs(route.functionLogicalId)}`);
      }
      if (withoutSuccess.length) console.warn(`Routes called only for their error answer (add a success scenario in test/aws/harness/scenarios.ts): ${withoutSuccess.join(', ')}`);
      expect(failures).toEqual([]);
      // A new route gets its success scenario, or a reason in WITHOUT_SUCCESS_SCENARIO.
      expect(withoutSuccess.filter((route) => !WITHOUT_SUCCESS_SCENARIO[route])).toEqual([]);
      // The signed-in calls' tokens were checked against the pool's keys, fetched from Cognito's issuer URL.
      expect(stack.issuer.requests).toContain(`/${stack.userPool.poolId}/.well-known/jwks.json`);
    });

    it('runs the daily worker as its schedule invokes it', async () => {
      const daily = Object.entries(stack.cloud.template.Resources).filter(([, r]) => r.Type === 'AWS::Scheduler::Schedule');
      expect(daily.length).toBeGreaterThan(0);
      for (const [name, schedule] of daily) {
        const target = resolveValue(schedule.Properties!.Target, stack.cloud.ids, stack.cloud.template);
        await stack.events.fire(target, name, new Date().toISOString().slice(0, 19));
      }
      const runs = stack.events.invocations.filter((i) => i.source === 'scheduler');
      expect(runs.filter((r) => !r.ok)).toEqual([]);
    });

    it('expires the two-minute session at its expiresAt through the planner, the schedule, the hand-over and the expiry queue', async () => {
      const expired = await until(
        'the session to be expired by the workers',
        async () => {
          const read = await stack.api.request('GET', `/v1/sessions/${expiring}`, { key: state.keys.secretTest });
          return read.body.status === 'expired' && stack.events.invocations.some((i) => i.functionLogicalId.includes('expireSessions') && i.ok) ? read : undefined;
        },
        200_000,
      );
      expect(expired.body.closedReason).toBe('expired');
      expect(stack.events.firedSchedules.length).toBeGreaterThan(0);
      await until('session.expired at the receiver', () => signedEvents().find((e) => e.type === 'session.expired' && JSON.stringify(e.data).includes(expiring)), 60_000);
    });

    it('ran every function of the template, cold, under aws-lambda-ric with this SDK', () => {
      const started = new Set(stack.cloud.containerStats().map((c) => c.id));
      const never = stack.cloud.functions.map((f) => f.logicalId).filter((id) => !started.has(id));
      expect(never).toEqual([]);
    });

    it('made only AWS calls that the functions\' roles in the template allow', () => {
      expect(stack.cloud.recorder.calls.length).toBeGreaterThan(0);
      expect(deniedCalls(stack.cloud.template, stack.cloud.ids, stack.cloud.recorder.calls)).toEqual([]);
    });

    it(`used the ${variant} SDK from outside the bundles`, () => {
      const versions = new Set(stack.cloud.recorder.calls.filter((c) => c.userAgent !== EVENT_SOURCE_AGENT).map((c) => /aws-sdk-js\/(\d+\.\d+\.\d+)/.exec(c.userAgent)?.[1]));
      expect(versions.size).toBeGreaterThan(0);
      for (const version of versions) expect(stack.cloud.sdk.versions, String(version)).toContain(version);
      // The two layers share no version, so the User-Agent tells which one answered.
      const other = sdkLayer(variant === 'lockfile' ? 'runtime' : 'lockfile').versions;
      for (const version of versions) expect(other, String(version)).not.toContain(version);
    });
  });
}
