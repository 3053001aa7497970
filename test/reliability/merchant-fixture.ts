import type { MerchantKeys } from '../../shared/admin/merchant-admin.ts';
import type { Merchant } from '../../shared/domain/merchant.ts';
import type { RouteDefinition } from '../../shared/routes.ts';
import { checkoutCharge, openSession } from '../support/checkout.ts';
import type { TestSandbox } from '../support/sandbox.ts';

/** One of everything a route can name, owned by one merchant in test mode. */
export interface MerchantFixture {
  merchant: Merchant;
  keys: MerchantKeys;
  sessionReference: string;
  transactionReference: string;
  endpointId: string;
  endpointSecret: string;
  deliveryId: string;
  /** A stored card (issue 4's vault), or null while /v1/cards is not in the manifest. */
  cardToken: string | null;
  /** The hash of the merchant's checkout logo (GET /v1/checkout/logos/{merchantId}/{hash}). */
  logoHash: string;
}

/** The smallest PNG the logo rules accept: its signature and the start of an IHDR chunk. */
const LOGO_PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

/** Makes a merchant with an open session, a completed charge, a webhook endpoint and a test delivery. */
export async function merchantFixture(sandbox: TestSandbox, webhookUrl: string): Promise<MerchantFixture> {
  const { merchant, keys } = await sandbox.newMerchant();
  const session = await openSession(sandbox, keys.secretTest, { expiresInMinutes: 60 });
  // With a customerRef the approved card is stored, where the vault exists.
  const paid = await openSession(sandbox, keys.secretTest, { expiresInMinutes: 60, customerRef: 'cust_fixture' });
  const charged = await checkoutCharge(sandbox, paid.reference);
  if (charged.status !== 200) throw new Error(`fixture charge failed: ${charged.status} ${charged.text}`);
  const endpoint = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: webhookUrl } });
  if (endpoint.status !== 201) throw new Error(`fixture endpoint failed: ${endpoint.status} ${endpoint.text}`);
  const test = await sandbox.request('POST', `/v1/webhooks/endpoints/${endpoint.body.id}/test`, { key: keys.secretTest });
  if (test.status !== 202) throw new Error(`fixture delivery failed: ${test.status} ${test.text}`);
  const cards = await sandbox.request('GET', '/v1/cards', { key: keys.secretTest });
  const branded = await sandbox.deps.merchants.updateBranding(merchant.id, { businessName: 'Fixture', logo: { bytes: LOGO_PNG } });
  return {
    merchant,
    keys,
    sessionReference: session.reference,
    transactionReference: charged.body.transaction.reference,
    endpointId: endpoint.body.id,
    endpointSecret: endpoint.body.secret,
    deliveryId: test.body.deliveryId,
    cardToken: cards.status === 200 ? ((cards.body as { svcToken: string }[])[0]?.svcToken ?? null) : null,
    logoHash: branded.logo!.hash,
  };
}

/**
 * The fixture's id for each {parameter} of a route, chosen by the resource the path names. A new route whose
 * resource is not here fails loudly, so the isolation matrix is extended rather than silently skipped.
 */
export function pathValues(route: RouteDefinition, fixture: MerchantFixture): Record<string, string> {
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (params.length === 0) return {};
  if (route.path === '/v1/checkout/logos/{merchantId}/{hash}') return { merchantId: fixture.merchant.id, hash: fixture.logoHash };
  const byPrefix: [string, string][] = [
    ['/v1/sessions/', fixture.sessionReference],
    ['/v1/checkout/sessions/', fixture.sessionReference],
    ['/v1/transactions/', fixture.transactionReference],
    ['/v1/webhooks/endpoints/', fixture.endpointId],
    ['/v1/webhooks/deliveries/', fixture.deliveryId],
    ['/v1/cards/', fixture.cardToken ?? 'tok_svc_none'],
    // Dashboard routes (user tokens only): ids of the right shape; the API keys these tests send never reach them.
    ['/v1/dashboard/payments/', fixture.sessionReference],
    ['/v1/dashboard/keys/', '0'.repeat(64)],
    ['/v1/dashboard/users/', 'usr_none'],
    ['/v1/dashboard/bank-credentials/', 'bank_direct'],
    ['/v1/dashboard/webhook-endpoints/', fixture.endpointId],
  ];
  const value = byPrefix.find(([prefix]) => route.path.startsWith(prefix))?.[1];
  if (value === undefined || params.length > 1) throw new Error(`merchant-fixture.ts: add a fixture for ${route.method} ${route.path}`);
  return { [params[0]!]: value };
}

/**
 * Secret routes that name another resource of the merchant in their body (a charge of a stored card): the body that
 * names the fixture's, for the isolation matrix. Other creates name nothing of anyone else.
 */
export function namedInBody(route: RouteDefinition, fixture: MerchantFixture): Record<string, unknown> | null {
  if (route.method === 'POST' && route.path === '/v1/charges') return { svcToken: fixture.cardToken, amountMinor: 100, currency: 'VES' };
  if (route.method === 'POST' && route.path === '/v1/sessions') return fixture.cardToken ? { amountMinor: 100, currency: 'VES', cardToken: fixture.cardToken } : null;
  return null;
}

/** Query a GET route needs to answer at all (analytics wants a date range). */
export function requiredQuery(route: RouteDefinition): string {
  return route.path === '/v1/analytics/summary' ? '?from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z' : '';
}

/** Checkout routes that name their session in the body rather than the path. */
/** A P2C payment as a buyer reports it (a day long past: never after today). */
export const P2C_REFERENCE = { reference: '84840003380', bankCode: '0105', phone: '04141234567', paidOn: '2026-01-15' };

export function bodyReferenceOf(route: RouteDefinition, fixture: MerchantFixture): Record<string, unknown> | null {
  if (route.auth !== 'checkout' || route.path.includes('{')) return null;
  if (route.path === '/v1/checkout/otp') return { sessionReference: fixture.sessionReference, transactionReference: fixture.transactionReference, code: '000000' };
  // Pago móvil: the payer of the bank's sandbox, with its key for the debit.
  const payer = { sessionReference: fixture.sessionReference, bankCode: '0105', phone: '04141234567', documentType: 'V', documentId: '9999999' };
  if (route.path === '/v1/checkout/pago-movil/key') return payer;
  if (route.path === '/v1/checkout/pago-movil/charge') return { ...payer, key: '00001111' };
  if (route.path === '/v1/checkout/pago-movil/reference') return { sessionReference: fixture.sessionReference, ...P2C_REFERENCE };
  return { sessionReference: fixture.sessionReference, card: { number: '4111111111111111', expMonth: 12, expYear: 2030, cvv: '123', holderName: 'Ana Perez' }, document: { type: 'V', id: '12345678' } };
}
