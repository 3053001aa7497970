import { randomUUID } from 'node:crypto';
import { createMerchant, type MerchantKeys } from '../../../shared/admin/merchant-admin.ts';
import { createApiKeyStore } from '../../../shared/store/api-key-store.ts';
import { createDocumentClient } from '../../../shared/store/dynamo-client.ts';
import { createMerchantStore } from '../../../shared/store/merchant-store.ts';
import type { ApiResponse } from './api-gateway.ts';
import type { DeployedStack } from './deployed-stack.ts';

export const VISA = '4111111111111111';
export const card = () => ({ number: VISA, expMonth: 12, expYear: 2030, cvv: '123', holderName: 'Ana Pérez' });
export const DOCUMENT = { type: 'V', id: '12345678' };

/** A merchant made as the admin CLI makes one (merchant-admin.ts), straight in the local table. */
export async function newMerchant(stack: DeployedStack): Promise<{ id: string; keys: MerchantKeys }> {
  const db = createDocumentClient({ tableName: stack.cloud.tableName, endpoint: stack.dynamo.endpoint });
  const stores = { merchants: createMerchantStore(db, stack.cloud.tableName), apiKeys: createApiKeyStore(db, stack.cloud.tableName) };
  const { merchant, keys } = await createMerchant(stores, { name: 'AWS harness merchant', now: new Date() });
  db.destroy();
  return { id: merchant.id, keys };
}

/** What the success scenarios share: a merchant, and what earlier steps made (a paid session, a stored card, an endpoint). */
export interface ScenarioState {
  keys: MerchantKeys;
  paidSession?: string;
  transaction?: string;
  cardToken?: string;
  endpointId?: string;
  /** An endpoint the sweep creates, and deletes last. */
  extraEndpointId?: string;
  receiverUrl: string;
}

type Scenario = (stack: DeployedStack, state: ScenarioState) => Promise<ApiResponse>;

const sessionBody = (extra: Record<string, unknown> = {}) => ({ amountMinor: 1050, currency: 'VES', ...extra });

/**
 * A successful call of each route, by "METHOD path" of the template. Routes without one are still called for their
 * error answer (every route); the test lists them, so a new route shows up in the output until it gets one here.
 */
export const successScenarios: Record<string, Scenario> = {
  'POST /v1/sessions': (s, st) => s.api.request('POST', '/v1/sessions', { key: st.keys.secretTest, body: sessionBody(), headers: { 'Idempotency-Key': randomUUID() } }),
  'GET /v1/sessions': (s, st) => s.api.request('GET', '/v1/sessions?pageSize=5', { key: st.keys.secretTest }),
  'GET /v1/sessions/{reference}': (s, st) => s.api.request('GET', `/v1/sessions/${st.paidSession}`, { key: st.keys.secretTest }),
  'POST /v1/sessions/{reference}/expire': async (s, st) => {
    const created = await s.api.request('POST', '/v1/sessions', { key: st.keys.secretTest, body: sessionBody() });
    return s.api.request('POST', `/v1/sessions/${created.body.reference}/expire`, { key: st.keys.secretTest });
  },
  'POST /v1/checkout/charge': async (s, st) => {
    const created = await s.api.request('POST', '/v1/sessions', { key: st.keys.secretTest, body: sessionBody() });
    return s.api.request('POST', '/v1/checkout/charge', { body: { sessionReference: created.body.reference, card: card(), document: DOCUMENT }, headers: { 'Idempotency-Key': randomUUID() } });
  },
  'GET /v1/checkout/sessions/{reference}': (s, st) => s.api.request('GET', `/v1/checkout/sessions/${st.paidSession}`),
  'GET /v1/transactions': (s, st) => s.api.request('GET', '/v1/transactions', { key: st.keys.secretTest }),
  'GET /v1/transactions/{reference}': (s, st) => s.api.request('GET', `/v1/transactions/${st.transaction}`, { key: st.keys.secretTest }),
  'GET /v1/cards': (s, st) => s.api.request('GET', '/v1/cards?customerRef=cus_aws', { key: st.keys.secretTest }),
  'GET /v1/analytics/summary': (s, st) => s.api.request('GET', `/v1/analytics/summary?from=2020-01-01T00:00:00Z&to=${new Date(Date.now() + 60_000).toISOString()}`, { key: st.keys.secretTest }),
  'GET /v1/webhooks/endpoints': (s, st) => s.api.request('GET', '/v1/webhooks/endpoints', { key: st.keys.secretTest }),
  'GET /v1/webhooks/endpoints/{id}': (s, st) => s.api.request('GET', `/v1/webhooks/endpoints/${st.endpointId}`, { key: st.keys.secretTest }),
  'PATCH /v1/webhooks/endpoints/{id}': (s, st) => s.api.request('PATCH', `/v1/webhooks/endpoints/${st.endpointId}`, { key: st.keys.secretTest, body: { description: 'renamed' } }),
  'POST /v1/webhooks/endpoints/{id}/test': (s, st) => s.api.request('POST', `/v1/webhooks/endpoints/${st.endpointId}/test`, { key: st.keys.secretTest, body: {} }),
  'GET /v1/webhooks/deliveries': (s, st) => s.api.request('GET', '/v1/webhooks/deliveries', { key: st.keys.secretTest }),
  'GET /v1/webhooks/deliveries/{id}': async (s, st) => s.api.request('GET', `/v1/webhooks/deliveries/${await firstDelivery(s, st)}`, { key: st.keys.secretTest }),
  'POST /v1/webhooks/deliveries/{id}/retry': async (s, st) => s.api.request('POST', `/v1/webhooks/deliveries/${await firstDelivery(s, st)}/retry`, { key: st.keys.secretTest, body: {} }),
  'POST /v1/webhooks/endpoints': async (s, st) => {
    const created = await s.api.request('POST', '/v1/webhooks/endpoints', { key: st.keys.secretTest, body: { url: `${st.receiverUrl}/second`, enabledEvents: ['session.expired'] } });
    st.extraEndpointId = created.body?.id;
    return created;
  },
  'GET /v1/openapi.json': (s) => s.api.request('GET', '/v1/openapi.json'),
};

/** Public routes without any input: nothing a caller sends can make them fail, so they have no error case. */
export const WITHOUT_ERROR_CASE = ['GET /v1/openapi.json'];

/** Routes whose success needs what the flow made last: run after the others. */
export const LATE_SCENARIOS = ['DELETE /v1/cards/{svcToken}', 'DELETE /v1/webhooks/endpoints/{id}'];
successScenarios['DELETE /v1/cards/{svcToken}'] = (s, st) => s.api.request('DELETE', `/v1/cards/${st.cardToken}`, { key: st.keys.secretTest });
successScenarios['DELETE /v1/webhooks/endpoints/{id}'] = (s, st) => s.api.request('DELETE', `/v1/webhooks/endpoints/${st.extraEndpointId}`, { key: st.keys.secretTest });

async function firstDelivery(stack: DeployedStack, state: ScenarioState): Promise<string> {
  const list = await stack.api.request('GET', '/v1/webhooks/deliveries', { key: state.keys.secretTest });
  return list.body?.data?.[0]?.id ?? 'no_delivery';
}

/**
 * An error answer any route gives: no key (secret routes answer 401), or for routes a browser calls without a key
 * an unknown reference or an empty body (404 or 400). Path parameters get values that exist nowhere.
 */
export function errorRequest(stack: DeployedStack, method: string, path: string): Promise<ApiResponse> {
  const concrete = path.replace(/\{[^}]+\}/g, 'does_not_exist_0000');
  return stack.api.request(method, concrete, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
}
