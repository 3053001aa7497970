import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import type { PublicRouteId } from '../../shared/openapi/operation-descriptions.ts';
import type { OperationExample } from '../../shared/openapi/operation-examples.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import type { TestSandbox } from '../support/sandbox.ts';
import { otpMerchant, payWithOtp, storedCard } from '../support/stored-card-charges.ts';
import type { TestReceiver } from '../support/webhook-receiver.ts';

/** A 1x1 PNG: the smallest image the logo route serves. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/**
 * One exemplary request to every public operation, in the order a merchant's integration makes them, against a real
 * sandbox: what the OpenAPI examples are recorded from (RECORD_OPENAPI_EXAMPLES=1) and what the test replays. Each
 * answer is the operation's documented example; the requests carry fixed bodies and Idempotency-Keys, so only the
 * ids and times the sandbox makes differ between runs.
 */
export async function runExampleScenario(
  sandbox: TestSandbox,
  receiver: TestReceiver,
): Promise<{ exchanges: Map<PublicRouteId, OperationExample>; merchants: { id: string; mode: 'test' | 'live' }[] }> {
  const exchanges = new Map<PublicRouteId, OperationExample>();
  const { merchant, keys } = await sandbox.newMerchant();
  const sk = keys.secretTest;
  // Branded before its first request: the API keeps a merchant 30 s.
  await sandbox.deps.merchants.updateBranding(merchant.id, { businessName: 'Café El Ávila', logo: { contentType: 'image/png', bytes: PNG } });

  async function record(id: PublicRouteId, method: string, path: string, options: { body?: unknown; idempotencyKey?: string; key?: string | null } = {}) {
    const headers = options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : undefined;
    const res = await sandbox.request(method, path, { key: options.key === null ? undefined : (options.key ?? sk), body: options.body, headers });
    const example: OperationExample = {
      request: { method, path, ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}), ...(options.body !== undefined ? { body: options.body } : {}) },
      response: { status: res.status, ...(res.body !== undefined ? { body: res.body } : {}) },
    };
    exchanges.set(id, example);
    return res;
  }

  // Sessions: created with every optional field, read, listed.
  const created = await record('createSession', 'POST', '/v1/sessions', {
    idempotencyKey: 'order-42-attempt-1',
    body: {
      amountMinor: 1050,
      currency: 'VES',
      description: 'Pedido 42',
      customerRef: 'cus_42',
      maxFailures: 2,
      expiresInMinutes: 15,
      returnUrl: 'https://shop.example/thanks',
      prefill: { cardholderName: 'Ana Pérez', documentType: 'V', documentId: '12.345.678' },
      metadata: { orderId: 'order_42' },
    },
  });
  const reference = created.body.reference as string;
  await record('getSession', 'GET', `/v1/sessions/${reference}`);

  // The buyer's side: the checkout read and an approving charge.
  const checkoutRead = await record('getCheckoutSession', 'GET', `/v1/checkout/sessions/${reference}`, { key: null });
  const charged = await record('createCheckoutCharge', 'POST', '/v1/checkout/charge', {
    key: null,
    idempotencyKey: 'a1f3c2e4-attempt-1',
    body: { sessionReference: reference, card: card(TEST_CARDS.visa), document: { type: 'V', id: '12345678' } },
  });
  const transactionReference = charged.body.transaction.reference as string;
  await record('listSessions', 'GET', '/v1/sessions?page=1&pageSize=2&status=completed');
  await record('listTransactions', 'GET', `/v1/transactions?pageSize=2&sessionReference=${reference}`);

  // A refund of part of it, then the transaction with its trace and refunds.
  await record('createRefund', 'POST', `/v1/transactions/${transactionReference}/refunds`, { idempotencyKey: 'return-42-1', body: { amountMinor: 500, reason: 'requested_by_customer' } });
  await record('listRefunds', 'GET', `/v1/transactions/${transactionReference}/refunds`);
  await record('getTransaction', 'GET', `/v1/transactions/${transactionReference}`);
  // The accountant's export of that customer's payments.
  await record('exportPayments', 'GET', '/v1/payments/export?query=cus_42');
  await record('listCards', 'GET', '/v1/cards?customerRef=cus_42');
  const token = (await sandbox.request('GET', '/v1/cards?customerRef=cus_42', { key: sk })).body[0].svcToken as string;

  // An OTP charge, confirmed.
  const otpSession = await openSession(sandbox, sk, { amountMinor: 2500 });
  const pending = await checkoutCharge(sandbox, otpSession.reference, { card: card(TEST_CARDS.otp) });
  await record('confirmCheckoutOtp', 'POST', '/v1/checkout/otp', {
    key: null,
    idempotencyKey: 'b7d9e1f0-otp-1',
    body: { sessionReference: otpSession.reference, transactionReference: pending.body.transaction.reference, code: '123456' },
  });

  // Pago móvil C2P on Mercantil (its simulator, the bank's sandbox payer): the key asked for, then the debit.
  const c2p = await sandbox.newMerchant({
    changes: { gateways: { VES: 'mercantil', USD: 'card_processor' }, testMode: { mercantil: true }, pagoMovil: { gateways: { pago_movil_c2p: 'mercantil', pago_movil_p2c: 'mercantil' }, payee: { phone: '04241112233', rif: 'J-07013380-5' } } },
  });
  await loadBankCredentials(sandbox.deps, c2p.merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
  const c2pSession = await openSession(sandbox, c2p.keys.secretTest, { amountMinor: 250_075 });
  // A phone of its own: the per-phone key bound (5 a day) is shared by every file on this worker's table.
  const payer = { sessionReference: c2pSession.reference, bankCode: '0105', phone: '0416-765.43.21', documentType: 'V', documentId: '9999999' };
  await record('requestPagoMovilKey', 'POST', '/v1/checkout/pago-movil/key', { key: null, body: payer });
  await record('createPagoMovilCharge', 'POST', '/v1/checkout/pago-movil/charge', { key: null, idempotencyKey: 'c4e8a2b6-c2p-1', body: { ...payer, key: '00001111' } });

  // Pago móvil P2C: a buyer who paid Bs. 52,50 from their bank app gives the reference (found: approved); the
  // merchant submits for another session a reference the buyer sent by WhatsApp, not at the bank yet (202).
  const paidOn = '2025-03-17';
  sandbox.mercantil.pagoMovil.receivePayment({ payerPhone: '584141234567', amountMinor: 5_250, reference: '84840003380', date: paidOn });
  const p2cSession = await openSession(sandbox, c2p.keys.secretTest, { amountMinor: 5_250 });
  const p2cPayment = { reference: '84840003380', bankCode: '0105', phone: '0414-123.45.67', paidOn };
  await record('submitPagoMovilReference', 'POST', '/v1/checkout/pago-movil/reference', { key: null, idempotencyKey: 'd5f9b3c7-p2c-1', body: { sessionReference: p2cSession.reference, ...p2cPayment } });
  const byWhatsApp = await openSession(sandbox, c2p.keys.secretTest, { amountMinor: 5_250 });
  await record('submitSessionPagoMovilReference', 'POST', `/v1/sessions/${byWhatsApp.reference}/pago-movil-reference`, {
    key: c2p.keys.secretTest,
    idempotencyKey: 'd5f9b3c7-p2c-2',
    body: { ...p2cPayment, reference: '84840003381' },
  });

  // Closing an unpaid session.
  const unpaid = await openSession(sandbox, sk);
  await record('expireSession', 'POST', `/v1/sessions/${unpaid.reference}/expire`);

  // Webhooks: an endpoint at the receiver, a sample event, the log, a retry, the change and the deletion.
  const endpoint = await record('createWebhookEndpoint', 'POST', '/v1/webhooks/endpoints', {
    body: { url: `${receiver.url}/webhooks`, enabledEvents: ['charge.approved', 'charge.declined', 'session.expired'], description: 'Order fulfilment' },
  });
  const endpointId = endpoint.body.id as string;
  await record('listWebhookEndpoints', 'GET', '/v1/webhooks/endpoints');
  await record('getWebhookEndpoint', 'GET', `/v1/webhooks/endpoints/${endpointId}`);
  await record('updateWebhookEndpoint', 'PATCH', `/v1/webhooks/endpoints/${endpointId}`, { body: { authType: 'bearer', authToken: 'shop-webhook-token' } });
  const test = await record('testWebhookEndpoint', 'POST', `/v1/webhooks/endpoints/${endpointId}/test?type=charge.approved`);
  await sandbox.background.drain();
  await record('listWebhookDeliveries', 'GET', `/v1/webhooks/deliveries?endpointId=${endpointId}&limit=1`);
  await record('getWebhookDelivery', 'GET', `/v1/webhooks/deliveries/${test.body.deliveryId}`);
  await record('retryWebhookDelivery', 'POST', `/v1/webhooks/deliveries/${test.body.deliveryId}/retry`);
  await sandbox.background.drain();
  await record('deleteWebhookEndpoint', 'DELETE', `/v1/webhooks/endpoints/${endpointId}`);
  await record('deleteCard', 'DELETE', `/v1/cards/${token}`);

  // Server to server: a card verified with the OTP bank, charged without the buyer.
  const otpBank = await otpMerchant(sandbox);
  await payWithOtp(sandbox, otpBank.keys.secretLive, 'cus_77');
  const stored = await storedCard(sandbox, otpBank.keys.secretLive, 'cus_77');
  await record('createCharge', 'POST', '/v1/charges', {
    key: otpBank.keys.secretLive,
    idempotencyKey: 'renewal-2026-01',
    body: { svcToken: stored.svcToken, amountMinor: 2500, currency: 'VES', description: 'Renovación mensual', customerRef: 'cus_77', metadata: { subscriptionId: 'sub_9' } },
  });
  // Analytics count live transactions only: the live merchant's two approved charges.
  await record('getAnalyticsSummary', 'GET', '/v1/analytics/summary?from=2026-01-01T00:00:00Z&to=2030-01-01T00:00:00Z', { key: otpBank.keys.secretLive });

  // The merchant's logo, as the checkout page loads it.
  await record('getMerchantLogo', 'GET', checkoutRead.body.merchant.logoUrl as string, { key: null });
  const document = await record('getOpenApiDocument', 'GET', '/v1/openapi.json', { key: null });
  // The document's example is its head: the whole document inside itself would double it.
  exchanges.get('getOpenApiDocument')!.response.body = { openapi: document.body.openapi, info: document.body.info };
  return { exchanges, merchants: [{ id: merchant.id, mode: 'test' }, { id: c2p.merchant.id, mode: 'test' }, { id: otpBank.merchant.id, mode: 'live' }] };
}
