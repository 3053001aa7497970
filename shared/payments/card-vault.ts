/**
 * The card vault's part of a checkout charge: the number is sealed (SecretBox) and fingerprinted (keyed HMAC) when
 * the attempt starts, because an OTP approval comes in a later request without it; the approval then adds the
 * card record, its match and card.stored to the transaction that settles the attempt.
 */
import type { PaymentDeps } from '../deps.ts';
import { ConflictError } from '../errors.ts';
import { GATEWAYS } from '../domain/merchant.ts';
import type { PaymentData } from '../domain/payment-data.ts';
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
 * Sealed only for a card typed now (not a stored one), when an approval will store it (a customerRef) or when the
 * network takes the whole card again with the buyer's code (capability cardWithOtp; otp-confirmation.ts).
 */
export async function sealCardFor(deps: PaymentDeps, session: Session, payment: PaymentData): Promise<SealedCard | undefined> {
  if (session.cardToken || !(session.customerRef || GATEWAYS[session.gateway].cardWithOtp)) return undefined;
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
