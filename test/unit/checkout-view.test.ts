import { describe, expect, it } from 'vitest';
import { simulatedGateways } from '../../infra/sandbox/gateway-urls.ts';
import { buyerTransaction, toCheckoutView } from '../../shared/domain/checkout-view.ts';
import { GATEWAY_IDS, type GatewayId } from '../../shared/domain/merchant.ts';
import { newSession } from '../../shared/domain/session.ts';
import { newTransaction, resolveTransaction, toTransactionResource } from '../../shared/domain/transaction.ts';

const NOW = Date.parse('2026-12-06T12:00:00Z');
const merchant = { id: 'mer_1', name: 'Café' };
const sessionOn = (gateway: GatewayId, mode: 'test' | 'live' = 'live') =>
  newSession({ amountMinor: 2599, currency: gateway === 'stripe' ? 'USD' : 'VES' }, { id: 's1', reference: 'cs_1' }, { merchantId: merchant.id, mode, gateway, paymentMethods: ['card'], now: NOW });

describe('the checkout session says whether its network is simulated (issue 35 item 9)', () => {
  it('never in AWS, whose config names no simulated gateway', () => {
    for (const gateway of GATEWAY_IDS) expect(toCheckoutView(sessionOn(gateway), null, merchant, NOW).simulated).toBe(false);
  });

  it('in the sandbox, live mode included, for every gateway left on its simulator', () => {
    const simulated = simulatedGateways({ GATEWAY_STRIPE_URL: 'https://api.stripe.com' });
    expect(simulated).toEqual(GATEWAY_IDS.filter((id) => id !== 'stripe'));
    expect(toCheckoutView(sessionOn('mercantil', 'live'), null, merchant, NOW, simulated).simulated).toBe(true);
    expect(toCheckoutView(sessionOn('mercantil', 'test'), null, merchant, NOW, simulated).simulated).toBe(true);
    // Pointed at a real Stripe, its sessions are not told they are simulated.
    expect(toCheckoutView(sessionOn('stripe'), null, merchant, NOW, simulated).simulated).toBe(false);
  });
});

describe('the checkout session names the methods it takes (issue 34 item 5)', () => {
  it("the session's own methods, so the page can offer pago móvil next to the card", () => {
    const c2p = newSession({ amountMinor: 2599, currency: 'VES' }, { id: 's2', reference: 'cs_2' }, { merchantId: merchant.id, mode: 'test', gateway: 'mercantil', paymentMethods: ['card', 'pago_movil_c2p'], now: NOW });
    expect(toCheckoutView(c2p, null, merchant, NOW).paymentMethods).toEqual(['card', 'pago_movil_c2p']);
    expect(toCheckoutView(sessionOn('mercantil'), null, merchant, NOW).paymentMethods).toEqual(['card']);
  });
});

describe("the buyer's transaction (issue 35 item 8)", () => {
  const approved = (gateway: GatewayId, facts: { processorReference: string; authorizationCode?: string; funding?: 'credit' | 'debit' }) => {
    const card = { brand: 'visa', lastFour: '4242', expMonth: 12, expYear: 2030, holderName: 'Ana' };
    const pending = newTransaction({ reference: 'txn_1' }, { merchantId: merchant.id, mode: 'live', sessionReference: 'cs_1', gateway, amountMinor: 2599, currency: 'USD', now: NOW }, card, null);
    return toTransactionResource(resolveTransaction(pending, { status: 'approved', ...facts }, NOW));
  };

  it("leaves out Stripe's PaymentIntent id, which no bank knows, and keeps its authorization code and funding", () => {
    const merchantView = approved('stripe', { processorReference: 'pi_123', authorizationCode: '654321', funding: 'credit' });
    expect(merchantView).toMatchObject({ processorReference: 'pi_123', authorizationCode: '654321', card: { brand: 'visa', lastFour: '4242', funding: 'credit' } });
    expect(buyerTransaction(merchantView, 'stripe')).toMatchObject({ processorReference: null, authorizationCode: '654321', card: { funding: 'credit' } });
  });

  it("keeps the bank's own reference where the bank knows it (Mercantil), with no code it did not return", () => {
    const view = buyerTransaction(approved('mercantil', { processorReference: '0082338419478', funding: 'debit' }), 'mercantil');
    expect(view).toMatchObject({ processorReference: '0082338419478', authorizationCode: null, card: { funding: 'debit' } });
  });

  it('says nothing of the funding where no source told it', () => {
    expect(approved('bank_direct', { processorReference: 'AUTH1' }).card).toEqual({ brand: 'visa', lastFour: '4242', funding: null });
  });
});
