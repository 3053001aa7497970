import { randomUUID } from 'node:crypto';
import { OTP_CODE } from '../../../infra/sandbox/bank/test-cards.ts';
import { loadBankCredentials } from '../../../shared/admin/bank-credentials.ts';
import { createMerchant } from '../../../shared/admin/merchant-admin.ts';
import { withAdminStores } from './admin-stores.ts';
import type { DeployedStack } from './deployed-stack.ts';
import { card, DOCUMENT, failedStep, once, type Scenario, type ScenarioState } from './scenario-state.ts';

const MASTERCARD = '5555555555554444';
/** A 1×1 PNG: the logo the checkout shows. */
export const LOGO_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/**
 * A live merchant on the OTP bank with its credentials loaded (as `merchant gateways` and `bank-credentials load` of
 * the admin CLI make one), whose customer paid once at checkout and confirmed the bank's OTP: the card is stored and
 * verified, so the merchant can charge it server to server. `confirmed` is the OTP route's answer.
 */
function verifiedOtpCard(stack: DeployedStack, state: ScenarioState) {
  return once(state, 'otp card', async () => {
    const { merchantId, keys } = await withAdminStores(stack, async (stores) => {
      const { merchant, keys } = await createMerchant(stores, { name: 'AWS harness OTP merchant', now: new Date() });
      await stores.merchants.update(merchant.id, { gateways: { VES: 'bank_otp', USD: 'card_processor' } });
      await loadBankCredentials(stores, merchant.id, 'bank_otp', JSON.stringify({ apiKey: 'otp-key' }));
      return { merchantId: merchant.id, keys };
    });
    const customerRef = 'cus_aws_otp';
    const session = await stack.api.request('POST', '/v1/sessions', { key: keys.secretLive, body: { amountMinor: 1500, currency: 'VES', customerRef } });
    const charged = await stack.api.request('POST', '/v1/checkout/charge', {
      body: { sessionReference: session.body?.reference, card: { ...card(), number: MASTERCARD }, document: DOCUMENT },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    if (charged.status !== 202 || charged.body?.nextAction?.type !== 'otp') return { merchantId, keys, confirmed: failedStep(charged, 'expected the OTP challenge'), svcToken: undefined };
    const confirmed = await stack.api.request('POST', '/v1/checkout/otp', {
      body: { sessionReference: session.body.reference, transactionReference: charged.body.transaction.reference, code: OTP_CODE },
    });
    const cards = await stack.api.request('GET', `/v1/cards?customerRef=${customerRef}`, { key: keys.secretLive });
    return { merchantId, keys, confirmed, svcToken: cards.body?.[0]?.svcToken as string | undefined };
  });
}

/** Success scenarios of the payment routes that need more than a test key: the OTP bank, live credentials, refunds, the logo. */
export const paymentScenarios: Record<string, Scenario> = {
  'POST /v1/checkout/otp': async (s, st) => {
    const { confirmed } = await verifiedOtpCard(s, st);
    if (confirmed.body?.transaction?.status !== 'approved') return failedStep(confirmed, 'not approved');
    return confirmed;
  },
  'POST /v1/charges': async (s, st) => {
    const { keys, confirmed, svcToken } = await verifiedOtpCard(s, st);
    if (confirmed.status >= 300) return confirmed;
    return s.api.request('POST', '/v1/charges', { key: keys.secretLive, body: { amountMinor: 2500, currency: 'VES', svcToken, customerRef: 'cus_aws_otp' }, headers: { 'Idempotency-Key': randomUUID() } });
  },
  'POST /v1/transactions/{reference}/refunds': (s, st) =>
    s.api.request('POST', `/v1/transactions/${st.transaction}/refunds`, { key: st.keys.secretTest, body: { amountMinor: 100, reason: 'requested_by_customer' }, headers: { 'Idempotency-Key': randomUUID() } }),
  'GET /v1/transactions/{reference}/refunds': (s, st) => s.api.request('GET', `/v1/transactions/${st.transaction}/refunds`, { key: st.keys.restrictedTest }),
  'GET /v1/checkout/logos/{merchantId}/{hash}': async (s, st) => {
    // Uploaded as the admin CLI's `merchant branding --logo` does; the dashboard's settings route is its own scenario.
    const merchant = await withAdminStores(s, (stores) => stores.merchants.updateBranding(st.merchantId, { logo: { bytes: new Uint8Array(LOGO_PNG) } }));
    const logo = await s.api.request('GET', `/v1/checkout/logos/${st.merchantId}/${merchant.logo!.hash}`);
    return logo.headers['content-type'] === 'image/png' ? logo : failedStep(logo, `content-type ${logo.headers['content-type']}`);
  },
};
