/**
 * The stored card: its record, what merchants see of it, the de-duplication rule, its events and the periodic
 * verification of the one gateway that asks customers to verify their cards again. Pure: no I/O, no AWS.
 * The card number exists only encrypted (the vault) and as a keyed fingerprint; neither is ever shown.
 */
import { buildEvent, type EventEnvelope } from './events.ts';
import { GATEWAYS, type GatewayId } from './merchant.ts';
import type { DocumentType } from './prefill.ts';
import type { Mode } from './session-state.ts';

export const CARD_STATUSES = ['active', 'expired', 'deleted'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

export const GATEWAY_AUTH_STATUSES = ['active', 'requires_authentication', 'not_required'] as const;
export type GatewayAuthStatus = (typeof GATEWAY_AUTH_STATUSES)[number];

/** The gateway's verification is estimated to last this long (spec: about three months); the gateway decides. */
export const VERIFICATION_MONTHS = 3;
/** card.authentication_expiring is sent this many days before the estimated end, once each. */
export const EXPIRING_NOTICE_DAYS = [15, 7, 1] as const;

export interface StoredCard {
  id: string;
  svcToken: string;
  merchantId: string;
  mode: Mode;
  /** As written; the status shown also depends on the expiry date (cardStatusAt). */
  status: 'active' | 'deleted';
  customerRef: string | null;
  gateway: GatewayId;
  brand: string;
  lastFour: string;
  expMonth: number;
  expYear: number;
  holderName: string | null;
  documentType: DocumentType | null;
  documentId: string | null;
  /** Names the encrypted number; bound into its encryption context. Never leaves the service. */
  vaultRef: string;
  /** The card number, sealed by the SecretBox with cardNumberContext(merchantId, vaultRef). */
  encryptedNumber: string;
  /** Keyed HMAC of merchant, number and expiry (cardFingerprintInput): the de-duplication match. */
  fingerprint: string;
  createdAt: string;
  deletedAt: string | null;
  gatewayAuthStatus: GatewayAuthStatus | null;
  gatewayAuthenticatedAt: string | null;
  gatewayAuthExpiresAt: string | null;
  /** Days-before values of the card.authentication_expiring notices already sent for the current verification. */
  authNoticesSent: number[];
  version: number;
}

/** A card number sealed for the vault, with its match fingerprint, before the card record exists. */
export interface SealedCard {
  vaultRef: string;
  encryptedNumber: string;
  fingerprint: string;
}

/** What GET /v1/cards and DELETE /v1/cards/{svcToken} return. */
export interface CardResource {
  id: string;
  svcToken: string;
  brand: string;
  lastFour: string;
  expMonth: number;
  expYear: number;
  holderName: string | null;
  status: CardStatus;
  customerRef: string | null;
  createdAt: string;
  gatewayAuthStatus: GatewayAuthStatus | null;
  gatewayAuthenticatedAt: string | null;
  gatewayAuthExpiresAt: string | null;
}

/** A card past the end of its expiry month reads expired; a deleted card stays deleted. */
export function cardStatusAt(card: Pick<StoredCard, 'status' | 'expMonth' | 'expYear'>, now: number): CardStatus {
  if (card.status === 'deleted') return 'deleted';
  const endOfExpiryMonth = Date.UTC(card.expYear, card.expMonth, 1);
  return now >= endOfExpiryMonth ? 'expired' : 'active';
}

export const toCardResource = (card: StoredCard, now: number): CardResource => ({
  id: card.id,
  svcToken: card.svcToken,
  brand: card.brand,
  lastFour: card.lastFour,
  expMonth: card.expMonth,
  expYear: card.expYear,
  holderName: card.holderName,
  status: cardStatusAt(card, now),
  customerRef: card.customerRef,
  createdAt: card.createdAt,
  gatewayAuthStatus: card.gatewayAuthStatus,
  gatewayAuthenticatedAt: card.gatewayAuthenticatedAt,
  gatewayAuthExpiresAt: card.gatewayAuthExpiresAt,
});

/**
 * What the fingerprint is computed over: the same number and expiry at the same merchant give the same value, and
 * the merchant in it keeps one merchant's fingerprints useless for matching another's cards.
 */
export const cardFingerprintInput = (merchantId: string, number: string, expMonth: number, expYear: number): string =>
  `card:v1|${merchantId}|${number}|${String(expMonth).padStart(2, '0')}|${expYear}`;

/** The encryption context of a card number: it opens only for this merchant and this vault entry. */
/** The encryption-context purpose of a sealed card number; KMS grants key on it, so only the vault's users open one. */
export const CARD_NUMBER_PURPOSE = 'card_number';
export const cardNumberContext = (merchantId: string, vaultRef: string): Record<string, string> => ({ purpose: CARD_NUMBER_PURPOSE, merchantId, vaultRef });

/**
 * The de-duplication rule, once the (merchant, mode, customer, fingerprint) match is looked up: a live match is
 * the same card and is reused; a match that was deleted is replaced by a new record (the old one stays for its
 * transactions); no match stores a new record.
 */
export type VaultDecision = { kind: 'reuse'; svcToken: string } | { kind: 'store' } | { kind: 'replace_deleted'; svcToken: string };

export function decideVaulting(match: { svcToken: string; status: StoredCard['status'] } | null): VaultDecision {
  if (!match) return { kind: 'store' };
  return match.status === 'deleted' ? { kind: 'replace_deleted', svcToken: match.svcToken } : { kind: 'reuse', svcToken: match.svcToken };
}

/** Whether cards of this gateway carry a verification that the customer must renew (gatewayAuth* fields). */
export const verifiesPeriodically = (gateway: GatewayId): boolean => GATEWAYS[gateway].periodicVerification;

/** Three calendar months after the verification, the day kept within the month (30 Nov -> 28 Feb): gatewayAuthExpiresAt. */
export function verificationEstimate(authenticatedAt: number): number {
  const d = new Date(authenticatedAt);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + VERIFICATION_MONTHS);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d.getTime();
}

/** The gatewayAuth* fields after the customer verified the card now (a checkout payment through that gateway). */
export function verifiedNow(gateway: GatewayId, now: number): Pick<StoredCard, 'gatewayAuthStatus' | 'gatewayAuthenticatedAt' | 'gatewayAuthExpiresAt' | 'authNoticesSent'> {
  if (!verifiesPeriodically(gateway)) return { gatewayAuthStatus: null, gatewayAuthenticatedAt: null, gatewayAuthExpiresAt: null, authNoticesSent: [] };
  return {
    gatewayAuthStatus: 'active',
    gatewayAuthenticatedAt: new Date(now).toISOString(),
    gatewayAuthExpiresAt: new Date(verificationEstimate(now)).toISOString(),
    authNoticesSent: [],
  };
}

const DAY_MS = 86_400_000;

/**
 * The card.authentication_expiring notice due now, if any: the smallest threshold (15, 7, 1 days) already reached
 * and not yet sent. A job that missed days sends only the latest notice, not the stale ones. Null when none is due.
 */
export function dueExpiringNotice(card: Pick<StoredCard, 'status' | 'gatewayAuthStatus' | 'gatewayAuthExpiresAt' | 'authNoticesSent'>, now: number): { days: number; daysLeft: number } | null {
  if (card.status !== 'active' || card.gatewayAuthStatus !== 'active' || !card.gatewayAuthExpiresAt) return null;
  const msLeft = Date.parse(card.gatewayAuthExpiresAt) - now;
  if (msLeft <= 0) return null;
  const daysLeft = Math.ceil(msLeft / DAY_MS);
  const reached = EXPIRING_NOTICE_DAYS.filter((days) => daysLeft <= days);
  const latest = reached.length > 0 ? Math.min(...reached) : null;
  if (latest === null || card.authNoticesSent.includes(latest)) return null;
  return { days: latest, daysLeft };
}

const cardData = (card: StoredCard) => ({ svcToken: card.svcToken, brand: card.brand, lastFour: card.lastFour, customerRef: card.customerRef });

export const cardStoredEvent = (card: StoredCard, createdAt: string): EventEnvelope => buildEvent('card.stored', card.mode, createdAt, cardData(card));

export const cardDeletedEvent = (card: StoredCard, createdAt: string): EventEnvelope => buildEvent('card.deleted', card.mode, createdAt, cardData(card));

const verificationData = (card: StoredCard) => ({
  ...cardData(card),
  gateway: card.gateway,
  authenticationStatus: card.gatewayAuthStatus,
  authenticatedAt: card.gatewayAuthenticatedAt,
  estimatedExpiresAt: card.gatewayAuthExpiresAt,
});

export const authenticationExpiringEvent = (card: StoredCard, daysLeft: number, createdAt: string): EventEnvelope =>
  buildEvent('card.authentication_expiring', card.mode, createdAt, { ...verificationData(card), daysLeft });

/** `card` as it is after the gateway asked again (status requires_authentication). */
export const authenticationExpiredEvent = (card: StoredCard, transactionReference: string | null, createdAt: string): EventEnvelope =>
  buildEvent('card.authentication_expired', card.mode, createdAt, { ...verificationData(card), transactionReference });
