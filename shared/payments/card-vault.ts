/**
 * The card vault's part of a checkout charge: the number is sealed (SecretBox) and fingerprinted (keyed HMAC) only
 * when a later request needs it (an approval that stores the card, an OTP step that sends the card again), in an
 * item of its own with a TTL (transaction-store.ts), dropped by the write that ends its need; an approval then adds
 * the card record, its match and card.stored to the transaction that settles the attempt.
 */
import type { PaymentDeps } from '../deps.ts';
import { ConflictError } from '../errors.ts';
import { GATEWAYS } from '../domain/merchant.ts';
import type { PaymentData } from '../domain/payment-data.ts';
import type { GatewayOutcome } from '../gateways/payment-gateway.ts';
import type { Session } from '../domain/session.ts';
import {
  cardFingerprintInput,
  cardNumberContext,
  cardStoredEvent,
  decideVaulting,
  verifiedNow,
  verifiesPeriodically,
  type SealedCard,
  type StoredCard,
} from '../domain/stored-card.ts';
import type { Transaction } from '../domain/transaction.ts';
import { newId, prefixedId } from '../ids.ts';
import { named } from '../store/conditions.ts';
import type { TransactItem } from '../store/session-store.ts';

/**
 * Sealed when the attempt starts only for a session whose approval stores a card typed now (a customerRef, no
 * cardToken): the approval may come in a later request (the OTP step, a status read that settles a timeout).
 */
export async function sealForVault(deps: PaymentDeps, session: Session, payment: PaymentData): Promise<SealedCard | undefined> {
  return session.cardToken || !session.customerRef ? undefined : sealCard(deps, session, payment);
}

/**
 * The attempt with its number sealed once the network has asked for the buyer's code, when it takes the whole card
 * again with it (capability cardWithOtp; otp-confirmation.ts): the OTP request needs it. A card paid at once (a
 * Mercantil credit card) is never sealed for this.
 */
export async function sealForCode(deps: PaymentDeps, session: Session, transaction: Transaction, payment: PaymentData, outcome: GatewayOutcome): Promise<Transaction> {
  if (outcome.kind !== 'otp_required' || transaction.sealedCard || session.cardToken || !GATEWAYS[session.gateway].cardWithOtp) return transaction;
  return { ...transaction, sealedCard: await sealCard(deps, session, payment) };
}

/** Whether an attempt of the session may have a sealed number to drop: a card typed now that either rule seals. */
export const maySealCard = (session: Session): boolean => !session.cardToken && (Boolean(session.customerRef) || GATEWAYS[session.gateway].cardWithOtp);

/**
 * The TTL backstop of a sealed number (docs/security.md, round 4 finding 3): an hour past the session's end. Every
 * path that ends the attempt drops it first; this bounds what a lost expiry (a parked message) would leave behind.
 */
export const SEALED_CARD_TTL_AFTER_EXPIRY_MS = 60 * 60_000;
export const sealedCardExpiry = (session: Pick<Session, 'expiresAt'>): number => Date.parse(session.expiresAt) + SEALED_CARD_TTL_AFTER_EXPIRY_MS;

async function sealCard(deps: PaymentDeps, session: Session, payment: PaymentData): Promise<SealedCard> {
  const vaultRef = newId();
  const { number, expMonth, expYear } = payment.card;
  const [encryptedNumber, fingerprint] = await Promise.all([
    deps.secretBox.encrypt(number, cardNumberContext(session.merchantId, vaultRef)),
    deps.fingerprinter.fingerprint(cardFingerprintInput(session.merchantId, number, expMonth, expYear)),
  ]);
  return { vaultRef, encryptedNumber, fingerprint };
}

/**
 * The writes that store the approved card, with 'cardMatch' the one a simultaneous approval of the same card would
 * make fail: the match Put for a new card, the version-checked card for a known one whose verification is renewed.
 * Empty when the customer's card is stored already and nothing about it changes.
 */
export async function vaultItems(deps: PaymentDeps, session: Session & { customerRef: string }, approved: Transaction, sealed: SealedCard, now: number): Promise<TransactItem[]> {
  const match = await deps.cards.findMatch(session.merchantId, session.mode, sealed.fingerprint, session.customerRef);
  const decision = decideVaulting(match);
  if (decision.kind === 'reuse') {
    // The customer just paid through the gateway: that renews its verification.
    if (!verifiesPeriodically(session.gateway)) return [];
    const card = await deps.cards.get(decision.svcToken);
    if (!card) return [];
    const renewed = { ...card, ...verifiedNow(session.gateway, now), version: card.version + 1 };
    return [named('cardMatch', deps.cards.updateItem(renewed, card.version)), ...verificationIndex(deps, renewed)];
  }
  const at = new Date(now).toISOString();
  const summary = approved.card!;
  const card: StoredCard & { customerRef: string } = {
    id: newId(),
    svcToken: prefixedId('tok_svc'),
    merchantId: session.merchantId,
    mode: session.mode,
    status: 'active',
    customerRef: session.customerRef,
    gateway: session.gateway,
    brand: summary.brand,
    lastFour: summary.lastFour,
    expMonth: summary.expMonth,
    expYear: summary.expYear,
    holderName: summary.holderName,
    documentType: approved.document?.type ?? null,
    documentId: approved.document?.id ?? null,
    ...sealed,
    createdAt: at,
    deletedAt: null,
    ...verifiedNow(session.gateway, now),
    version: 1,
  };
  return [
    ...deps.cards.storeItems(card, decision.kind === 'replace_deleted' ? decision.svcToken : null),
    deps.cards.event(session.merchantId, cardStoredEvent(card, at)),
    ...verificationIndex(deps, card),
  ];
}

/** A card under periodic verification is indexed by its estimated end, where the daily notices find it. */
const verificationIndex = (deps: PaymentDeps, card: StoredCard): TransactItem[] =>
  card.gatewayAuthExpiresAt ? [deps.cards.verificationItem({ ...card, gatewayAuthExpiresAt: card.gatewayAuthExpiresAt })] : [];

/**
 * The customer guard: a stored card is used only for its own customer. A customerRef sent with a card (a cardToken
 * session, a server-to-server charge) must be the card's; omitted, the card's customer is meant.
 */
export function guardCustomer(card: Pick<StoredCard, 'customerRef'>, customerRef: string | undefined): void {
  if (customerRef !== undefined && customerRef !== card.customerRef) {
    throw new ConflictError('customer_mismatch', 'This card does not belong to that customerRef.');
  }
}
