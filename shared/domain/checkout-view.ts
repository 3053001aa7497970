/**
 * What the checkout page shows for a session. Pure. The buyer sees no merchant data beyond what the page needs.
 */
import { attemptsLeft } from './charge-transitions.ts';
import { forBuyer } from './decline-codes.ts';
import { GATEWAYS, type GatewayId, type Merchant } from './merchant.ts';
import { logoPath, publicBusinessName } from './merchant-branding.ts';
import { documentRequired } from './payment-data.ts';
import type { Prefill } from './prefill.ts';
import { methodsOf, stateOf, type Session } from './session.ts';
import { attemptsRemaining, effectiveState } from './session-state.ts';

export interface StoredCardFacts {
  brand: string;
  lastFour: string;
  holderName: string | null;
  documentType: string | null;
  documentId: string | null;
}

/**
 * The spec's table: a stored card's holder and document win over the prefill, field by field; with neither (or
 * no stored card) the whole prefill applies. Null when nothing is left to prefill.
 */
export function effectivePrefill(prefill: Prefill | null, card: StoredCardFacts | null): Prefill | null {
  if (!prefill) return null;
  const out: Prefill = { ...prefill };
  if (card?.holderName) delete out.cardholderName;
  if (card?.documentId) {
    delete out.documentType;
    delete out.documentId;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * A transaction as the buyer's browser sees it: forBuyer's generic decline, and no processor reference where it is
 * the processor's own id (Stripe's PaymentIntent), which the buyer's bank does not know; the merchant keeps it.
 */
export function buyerTransaction<T extends { status: unknown; errorCode?: unknown; declineReason?: unknown; processorReference?: unknown }>(t: T, gateway: GatewayId): T {
  const seen = forBuyer(t);
  return GATEWAYS[gateway].internalReference ? { ...seen, processorReference: null } : seen;
}

/** Whom the buyer pays: the public business name and the logo's URL on the checkout's origin (null without one). */
export const checkoutMerchant = (merchant: Pick<Merchant, 'id' | 'name' | 'businessName' | 'logo'>) => ({
  businessName: publicBusinessName(merchant),
  logoUrl: merchant.logo ? logoPath(merchant.id, merchant.logo) : null,
});

/** `simulatedGateways`: the sandbox's config (ServiceConfig); absent in AWS, where no session is simulated. */
export function toCheckoutView(
  session: Session,
  card: StoredCardFacts | null,
  merchant: Pick<Merchant, 'id' | 'name' | 'businessName' | 'logo'>,
  now: number,
  simulatedGateways: readonly string[] = [],
) {
  const { status, closedReason } = effectiveState(stateOf(session), now);
  return {
    reference: session.reference,
    merchant: checkoutMerchant(merchant),
    status,
    closedReason,
    amountMinor: session.amountMinor,
    currency: session.currency,
    description: session.description,
    expiresAt: session.expiresAt,
    attemptsRemaining: attemptsRemaining(session),
    // The spec warns the buyer only when one attempt remains: of maxFailures, or of the default bound without it.
    lastAttemptWarning: attemptsLeft(session) === 1,
    prefill: effectivePrefill(session.prefill, card),
    requiresOtp: session.gateway === 'bank_otp',
    requiresDocument: documentRequired(session.gateway) && !card?.documentId,
    // In test mode a network's own test cards that fail Luhn (Mercantil's debit card) are for the network to judge.
    luhnCheck: !(session.mode === 'test' && GATEWAYS[session.gateway].testCardsFailingLuhn.length > 0),
    otpAsksCard: GATEWAYS[session.gateway].cardWithOtp,
    storedCard: card ? { brand: card.brand, lastFour: card.lastFour } : null,
    paymentMethods: methodsOf(session),
    returnUrl: session.returnUrl,
    // The bank's code stays with the merchant (GET /v1/sessions); the buyer reads a generic decline.
    lastTransaction: session.lastTransaction && buyerTransaction(session.lastTransaction, session.gateway),
    test: session.mode === 'test',
    simulated: simulatedGateways.includes(session.gateway),
  };
}
