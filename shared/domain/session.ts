/**
 * The payment session as the domain sees it, and how it is shown to merchants. Pure: no I/O.
 */
import type { Currency, GatewayId } from './merchant.ts';
import { metadataOf, type Metadata } from './metadata.ts';
import type { PaymentMethodType } from './payment-method.ts';
import type { Prefill } from './prefill.ts';
import { attemptsRemaining, effectiveState, type ClosedReason, type Mode, type SessionStatus } from './session-state.ts';

export const SESSION_DURATION_MINUTES = { min: 2, max: 60, default: 5 } as const;

export interface TransactionSummary {
  reference: string;
  status: string;
  [field: string]: unknown;
}

export interface Session {
  id: string;
  reference: string;
  merchantId: string;
  mode: Mode;
  gateway: GatewayId;
  status: SessionStatus;
  closedReason: ClosedReason | null;
  amountMinor: number;
  currency: Currency;
  description: string | null;
  customerRef: string | null;
  cardToken: string | null;
  returnUrl: string | null;
  maxFailures: number | null;
  failureCount: number;
  attemptCount: number;
  expiresAt: string;
  createdAt: string;
  closedAt: string | null;
  prefill: Prefill | null;
  /** The merchant's own pairs; absent on sessions stored before metadata existed (read with metadataOf). */
  metadata?: Metadata;
  /** The methods the buyer may pay with; absent on sessions stored before pago móvil existed: cards only. */
  paymentMethods?: PaymentMethodType[];
  lastTransaction: TransactionSummary | null;
  /** The session's attempts, oldest first; written by the charge path, absent before the first attempt. */
  transactionReferences?: string[];
  /** Optimistic-concurrency counter: every write checks and bumps it. */
  version: number;
}

export interface SessionResource {
  id: string;
  reference: string;
  mode: Mode;
  status: SessionStatus;
  closedReason: ClosedReason | null;
  amountMinor: number;
  currency: Currency;
  description: string | null;
  customerRef: string | null;
  returnUrl: string | null;
  checkoutUrl: string;
  createdAt: string;
  expiresAt: string;
  maxFailures: number | null;
  attemptsRemaining: number | null;
  attemptCount: number;
  prefill: Prefill | null;
  metadata: Metadata;
  paymentMethods: PaymentMethodType[];
  lastTransaction: TransactionSummary | null;
}

export const checkoutUrlFor = (checkoutBaseUrl: string, reference: string): string =>
  `${checkoutBaseUrl.replace(/\/+$/, '')}/checkout?session=${encodeURIComponent(reference)}`;

export const stateOf = (s: Session) => ({
  status: s.status,
  closedReason: s.closedReason,
  expiresAt: Date.parse(s.expiresAt),
  maxFailures: s.maxFailures,
  failureCount: s.failureCount,
  mode: s.mode,
});

/** What GET, list and expire return: the status as of `now`, so a session past expiresAt reads expired. */
export function toSessionResource(s: Session, now: number, checkoutBaseUrl: string): SessionResource {
  const { status, closedReason } = effectiveState(stateOf(s), now);
  return {
    id: s.id,
    reference: s.reference,
    mode: s.mode,
    status,
    closedReason,
    amountMinor: s.amountMinor,
    currency: s.currency,
    description: s.description,
    customerRef: s.customerRef,
    returnUrl: s.returnUrl,
    checkoutUrl: checkoutUrlFor(checkoutBaseUrl, s.reference),
    createdAt: s.createdAt,
    expiresAt: s.expiresAt,
    maxFailures: s.maxFailures,
    attemptsRemaining: attemptsRemaining(s),
    attemptCount: s.attemptCount,
    prefill: s.prefill,
    metadata: metadataOf(s),
    paymentMethods: methodsOf(s),
    lastTransaction: s.lastTransaction,
  };
}

export const methodsOf = (s: Pick<Session, 'paymentMethods'>): PaymentMethodType[] => s.paymentMethods ?? ['card'];

export interface NewSessionInput {
  amountMinor: number;
  currency: Currency;
  customerRef?: string;
  cardToken?: string;
  returnUrl?: string;
  description?: string;
  maxFailures?: number;
  expiresInMinutes?: number;
  prefill?: Prefill | null;
  metadata?: Metadata;
}

/** A fresh session in state created; a stored card's customerRef is inherited when none is sent. */
export function newSession(
  input: NewSessionInput,
  ids: { id: string; reference: string },
  context: { merchantId: string; mode: Mode; gateway: GatewayId; paymentMethods: PaymentMethodType[]; now: number; card?: { customerRef: string | null } | null },
): Session {
  const minutes = input.expiresInMinutes ?? SESSION_DURATION_MINUTES.default;
  return {
    id: ids.id,
    reference: ids.reference,
    merchantId: context.merchantId,
    mode: context.mode,
    gateway: context.gateway,
    status: 'created',
    closedReason: null,
    amountMinor: input.amountMinor,
    currency: input.currency,
    description: input.description ?? null,
    customerRef: input.customerRef ?? context.card?.customerRef ?? null,
    cardToken: input.cardToken ?? null,
    returnUrl: input.returnUrl ?? null,
    maxFailures: input.maxFailures ?? null,
    failureCount: 0,
    attemptCount: 0,
    createdAt: new Date(context.now).toISOString(),
    expiresAt: new Date(context.now + minutes * 60_000).toISOString(),
    closedAt: null,
    prefill: input.prefill ?? null,
    metadata: input.metadata ?? {},
    paymentMethods: context.paymentMethods,
    lastTransaction: null,
    version: 1,
  };
}
