/**
 * Refunds of an approved transaction: how much may still be refunded, whether a refund is a void, what a bank
 * outcome does to a refund and to its transaction, and the events that announce it. Pure: no I/O.
 *
 * Two running sums live on the transaction: amountReservedMinor (refunds pending or succeeded, taken before the bank
 * is called, so parallel refunds can never exceed the approved amount) and amountRefundedMinor (refunds succeeded).
 * A failed refund gives its reservation back.
 */
import { buildEvent, type EventEnvelope } from './events.ts';
import { GATEWAYS, type Currency, type GatewayId } from './merchant.ts';
import { metadataOf } from './metadata.ts';
import { caracasDay } from './pago-movil.ts';
import { isPagoMovil } from './payment-method.ts';
import type { Mode } from './session-state.ts';
import type { ExternalRefundChannel } from './refund-channels.ts';
import type { Transaction } from './transaction.ts';

export const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * refund: the bank returns settled money; void: the bank cancels a charge not yet settled, before it is paid out;
 * external: the merchant returned the money another way (a transfer, a pago móvil, cash) and records it here. An
 * external refund moves no money and calls no bank: it only counts as refunded (docs/payments.md#refunds).
 */
export type RefundMethod = 'refund' | 'void' | 'external';


/** What the merchant says of an external refund: the channel, and the reference of the transfer or pago móvil if any. */
export interface ExternalRefund {
  channel: ExternalRefundChannel;
  reference: string | null;
}

export interface Refund {
  reference: string;
  transactionReference: string;
  merchantId: string;
  mode: Mode;
  gateway: GatewayId;
  method: RefundMethod;
  amountMinor: number;
  currency: Currency;
  status: RefundStatus;
  reason: RefundReason | null;
  /** The bank's reference of the refund (or void), once it has one; null for an external refund. */
  processorReference: string | null;
  /** How an external refund was made; null for a refund or void through the network. */
  external: ExternalRefund | null;
  errorCode: string | null;
  /** Spanish text the merchant may show the buyer; null unless failed. */
  declineReason: string | null;
  /** Technical reason of a failure, for the merchant's support team. */
  detail: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What the API answers: everything but the owner. */
export type RefundResource = Omit<Refund, 'merchantId' | 'mode' | 'gateway'> & { test: boolean };

// Refunds stored before external ones existed have no `external`.
export const toRefundResource = ({ merchantId: _merchant, mode, gateway: _gateway, ...shown }: Refund): RefundResource => ({ ...shown, external: shown.external ?? null, test: mode === 'test' });

export const refundedMinor = (t: Pick<Transaction, 'amountRefundedMinor'>): number => t.amountRefundedMinor ?? 0;
const reservedMinor = (t: Pick<Transaction, 'amountReservedMinor'>): number => t.amountReservedMinor ?? 0;

/** What may still be refunded: the approved amount less every refund pending or succeeded. */
export const remainingMinor = (t: Pick<Transaction, 'amountMinor' | 'amountReservedMinor'>): number => t.amountMinor - reservedMinor(t);

export type RefundDecision =
  | { kind: 'refund'; amountMinor: number; method: RefundMethod }
  | { kind: 'refused'; status: 400 | 409; code: string; message: string };

/**
 * Whether a refund of `requested` (default: all that remains) may be made now, and how. Refusals carry the API's
 * status and code: 409 when the transaction cannot be refunded at all, 400 when the amount is more than remains.
 * An external refund (`external`: the merchant returned the money another way) is recorded on any network, those
 * without refunds included, under the same limits.
 *
 * @example
 * decideRefund({ ...approved, amountMinor: 1000, amountReservedMinor: 400 }, 700, now)
 * // { kind: 'refused', status: 400, code: 'refund_amount_exceeds_remaining', ... }
 */
export function decideRefund(t: Transaction, requested: number | undefined, now: number, external = false): RefundDecision {
  if (t.status === 'refunded') return { kind: 'refused', status: 409, code: 'already_refunded', message: 'This transaction is already fully refunded.' };
  if (t.status !== 'approved') {
    return { kind: 'refused', status: 409, code: 'transaction_not_refundable', message: `Only an approved transaction can be refunded; this one is ${t.status}.` };
  }
  const method = t.method ?? 'card';
  const pagoMovil = isPagoMovil(method);
  if (!external && (pagoMovil ? !GATEWAYS[t.gateway].pagoMovil.includes(method) : !GATEWAYS[t.gateway].refunds)) {
    return {
      kind: 'refused',
      status: 409,
      code: 'refund_unsupported',
      message: `The ${t.gateway} network offers no refund or void of a card charge: return the money to the buyer another way, then record it with method "external".`,
    };
  }
  // A P2C payment was the buyer's own transfer: there is no debit to void, and a vuelto needs the payer's cédula,
  // which P2C does not ask for (our rule: docs/pago-movil.md).
  if (!external && method === 'pago_movil_p2c') {
    return {
      kind: 'refused',
      status: 409,
      code: 'refund_unsupported',
      message: 'A pago móvil P2C payment is not refunded through the bank: send the buyer a pago móvil from your bank, then record it with method "external".',
    };
  }
  const remaining = remainingMinor(t);
  if (remaining <= 0) {
    return { kind: 'refused', status: 409, code: 'already_refunded', message: 'The whole amount of this transaction is refunded or being refunded by pending refunds.' };
  }
  const amountMinor = requested ?? remaining;
  if (amountMinor > remaining) {
    return {
      kind: 'refused',
      status: 400,
      code: 'refund_amount_exceeds_remaining',
      message: `amountMinor ${amountMinor} is more than the ${remaining} that remains to refund of this transaction (${t.amountMinor} approved, ${reservedMinor(t)} refunded or pending).`,
    };
  }
  if (external) return { kind: 'refund', amountMinor, method: 'external' };
  // Where the network voids a charge of the same (UTC) day (capability voids), a full refund before it settles is a
  // void, with no fee and nothing to settle; elsewhere every refund is a refund. Pago móvil: a whole refund on the
  // debit's Caracas day is an anulación, any other a vuelto to the buyer's phone (our rule: docs/pago-movil.md).
  const sameDay = pagoMovil
    ? caracasDay(new Date(t.createdAt)) === caracasDay(new Date(now))
    : GATEWAYS[t.gateway].voids && t.createdAt.slice(0, 10) === new Date(now).toISOString().slice(0, 10);
  return { kind: 'refund', amountMinor, method: sameDay && amountMinor === t.amountMinor ? 'void' : 'refund' };
}

export function newRefund(reference: string, t: Transaction, decision: { amountMinor: number; method: RefundMethod }, reason: RefundReason | null, now: number, external: ExternalRefund | null = null): Refund {
  const at = new Date(now).toISOString();
  return {
    reference,
    transactionReference: t.reference,
    merchantId: t.merchantId,
    mode: t.mode,
    gateway: t.gateway,
    method: decision.method,
    amountMinor: decision.amountMinor,
    currency: t.currency,
    status: 'pending',
    reason,
    processorReference: null,
    external,
    errorCode: null,
    declineReason: null,
    detail: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** A bank's decided answer to a refund; `pending` and an unknown outcome leave the refund pending. */
export type RefundResult = { status: 'succeeded'; processorReference: string; method?: RefundMethod } | { status: 'failed'; errorCode: string; detail: string };

/** Codes the service assigns to a refund itself. */
export const REFUND_SERVICE_CODES = {
  /** The refund never reached the bank (the bank has no record of it): nothing was returned. */
  PROCESSOR_UNAVAILABLE: 'processor_unavailable',
} as const;

const FAILURE_REASONS: Record<string, string> = {
  [REFUND_SERVICE_CODES.PROCESSOR_UNAVAILABLE]: 'No pudimos comunicarnos con el banco para hacer la devolución. Inténtalo de nuevo en unos minutos.',
};
const FAILURE_FALLBACK = 'El banco no pudo devolver el dinero a esta tarjeta. Acuerda con el cliente otra forma de devolución.';

/** Spanish text of a failed refund, for the merchant to show the buyer. */
export const refundFailureReason = (code: string): string => FAILURE_REASONS[code] ?? FAILURE_FALLBACK;

export function resolveRefund(refund: Refund, result: RefundResult, now: number): Refund {
  const updatedAt = new Date(now).toISOString();
  if (result.status === 'succeeded') {
    return { ...refund, status: 'succeeded', processorReference: result.processorReference, method: result.method ?? refund.method, updatedAt };
  }
  return { ...refund, status: 'failed', errorCode: result.errorCode, declineReason: refundFailureReason(result.errorCode), detail: result.detail, updatedAt };
}

/** The transaction's status and running total once this refund succeeds: `refunded` when nothing is left. */
export function afterRefund(t: Pick<Transaction, 'amountMinor' | 'amountRefundedMinor' | 'status'>, amountMinor: number): { amountRefundedMinor: number; status: Transaction['status'] } {
  const total = refundedMinor(t) + amountMinor;
  return { amountRefundedMinor: total, status: total >= t.amountMinor ? 'refunded' : t.status };
}

/**
 * charge.refunded (a refund succeeded, full or partial) or charge.refund_failed, with the refund's data and the
 * transaction's running amountRefundedMinor, and the charge's metadata as every charge.* event carries it.
 */
export function refundEvent(refund: Refund, t: Pick<Transaction, 'amountMinor' | 'status' | 'sessionReference' | 'svcToken' | 'metadata'>, amountRefundedMinor: number, createdAt: string): EventEnvelope {
  return buildEvent(refund.status === 'succeeded' ? 'charge.refunded' : 'charge.refund_failed', refund.mode, createdAt, {
    transactionReference: refund.transactionReference,
    refundReference: refund.reference,
    amountMinor: refund.amountMinor,
    currency: refund.currency,
    status: refund.status,
    reason: refund.reason,
    method: refund.method,
    ...(refund.external ? { external: refund.external } : {}),
    processorReference: refund.processorReference,
    errorCode: refund.errorCode,
    declineReason: refund.declineReason,
    transactionAmountMinor: t.amountMinor,
    amountRefundedMinor,
    transactionStatus: t.status,
    metadata: metadataOf(t),
    ...(t.svcToken ? { svcToken: t.svcToken } : { sessionReference: t.sessionReference }),
  });
}
