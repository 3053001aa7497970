/**
 * The transaction: one payment attempt and its result. Pure: no I/O.
 */
import { buildEvent, type EventEnvelope } from './events.ts';
import type { Currency, GatewayId } from './merchant.ts';
import { metadataOf, type Metadata } from './metadata.ts';
import { fundingOfBrand, type CardFunding, type CardSummary } from './payment-data.ts';
import { methodDetails, type PagoMovilPayment, type PaymentMethodDetails, type PaymentMethodType } from './payment-method.ts';
import { refundedMinor, toRefundResource, type Refund, type RefundResource } from './refund.ts';
import type { OtpFactor } from './otp-factor.ts';
import type { DocumentType } from './prefill.ts';
import type { Mode } from './session-state.ts';
import type { SealedCard } from './stored-card.ts';

export const TRANSACTION_STATUSES = ['pending', 'approved', 'declined', 'failed', 'refunded'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** One step of the attempt's history, shown in the transaction detail. */
export interface TraceEntry {
  at: string;
  event: string;
  detail?: string;
}

export interface Transaction {
  reference: string;
  merchantId: string;
  mode: Mode;
  sessionReference: string | null;
  gateway: GatewayId;
  status: TransactionStatus;
  amountMinor: number;
  currency: Currency;
  /** How the buyer paid; absent means a card (every transaction stored before pago móvil). */
  method?: PaymentMethodType;
  /** Null while no card was sent (a USD payment opened at the processor when the buyer opened the checkout), and on pago móvil. */
  card: CardSummary | null;
  /** A pago móvil payment's bank and phone (payment-method.ts); never its key. */
  pagoMovil?: PagoMovilPayment;
  /** The payer's document: the cardholder's, or the pago móvil payer's cédula. */
  document: { type: DocumentType; id: string } | null;
  processorReference: string | null;
  /** The issuer's authorization code of the approval, where the network returns one (Stripe); absent otherwise. */
  authorizationCode?: string;
  declineReason: string | null;
  errorCode: string | null;
  /** Technical reason of a rejection, for the merchant's support team (not for the buyer). */
  detail: string | null;
  /** Wrong OTP codes entered in this attempt (refused by our check of their shape or by the bank). */
  otpFailures: number;
  /** What the bank asked the buyer for at the code step, where its answer said (OtpFactor); absent otherwise. */
  otpFactor?: OtpFactor;
  /**
   * The card sealed by this request while a later one needs the number (card-vault.ts: an approval that stores it,
   * an OTP step that sends the card again). Stored in an item of its own with a TTL, never on the transaction's;
   * dropped when its need ends. Never shown.
   */
  sealedCard?: SealedCard;
  /**
   * A live checkout attempt's card, as the card vault's keyed fingerprint of its number (card-declines.ts): a decline
   * counts against that card at its merchant for the day. Never shown.
   */
  cardKey?: string;
  /** The stored card a server-to-server charge (POST /v1/charges) was made with. */
  svcToken?: string;
  /** Sum of the refunds that succeeded (shared/domain/refund.ts); absent until the first one. */
  amountRefundedMinor?: number;
  /** The part of amountRefundedMinor the merchant returned another way and recorded (external refunds); absent until one. */
  amountRefundedExternallyMinor?: number;
  /** Sum of the refunds pending or succeeded: taken before the bank is called, given back by a failed refund. */
  amountReservedMinor?: number;
  /** The charge's own metadata, or its session's; absent on transactions stored before metadata existed. */
  metadata?: Metadata;
  trace: TraceEntry[];
  createdAt: string;
  updatedAt: string;
}

/** What the merchant and the checkout see; the trace and the technical detail only in the detail view. A type, not an
 * interface, so that it fits the session's lastTransaction summary. */
export type TransactionResource = {
  reference: string;
  status: TransactionStatus;
  test: boolean;
  sessionReference: string | null;
  amountMinor: number;
  currency: Currency;
  card: { brand: string; lastFour: string; funding: CardFunding | null } | null;
  /** The method, with a pago móvil phone masked to its last four digits (the detail view shows it whole). */
  paymentMethod: PaymentMethodDetails;
  processorReference: string | null;
  authorizationCode: string | null;
  declineReason: string | null;
  errorCode: string | null;
  createdAt: string;
  updatedAt: string;
};

/** What the merchant sees (answers to secret and read-only keys): the resource plus the metadata, which never reaches
 * the buyer's browser (the checkout's answers and the session's lastTransaction are the plain resource). */
export type MerchantTransactionResource = TransactionResource & { metadata: Metadata };

export interface TransactionDetailResource extends MerchantTransactionResource {
  gateway: GatewayId;
  cardholderName: string | null;
  document: { type: DocumentType; id: string } | null;
  detail: string | null;
  trace: TraceEntry[];
  /** Sum of the refunds that succeeded; the status becomes refunded when it reaches amountMinor. */
  amountRefundedMinor: number;
  /** Oldest first. */
  refunds: RefundResource[];
}

export const toTransactionResource = (t: Transaction): TransactionResource => ({
  reference: t.reference,
  status: t.status,
  test: t.mode === 'test',
  sessionReference: t.sessionReference,
  amountMinor: t.amountMinor,
  currency: t.currency,
  card: t.card ? { brand: t.card.brand, lastFour: t.card.lastFour, funding: t.card.funding ?? fundingOfBrand(t.card.brand) } : null,
  paymentMethod: methodDetails(t.method, t.pagoMovil, t.processorReference),
  processorReference: t.processorReference,
  authorizationCode: t.authorizationCode ?? null,
  declineReason: t.declineReason,
  errorCode: t.errorCode,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});

export const toMerchantTransaction = (t: Transaction): MerchantTransactionResource => ({ ...toTransactionResource(t), metadata: metadataOf(t) });

/** The method as the merchant reads it in the detail: the pago móvil phone whole. */
const merchantMethodDetails = (t: Transaction): PaymentMethodDetails => {
  const shown = methodDetails(t.method, t.pagoMovil, t.processorReference);
  return shown.type === 'card' || !t.pagoMovil ? shown : { ...shown, pagoMovil: { ...shown.pagoMovil, phone: t.pagoMovil.phone } };
};

export const toTransactionDetail = (t: Transaction, refunds: Refund[] = []): TransactionDetailResource => ({
  ...toMerchantTransaction(t),
  paymentMethod: merchantMethodDetails(t),
  gateway: t.gateway,
  cardholderName: t.card?.holderName ?? null,
  document: t.document,
  detail: t.detail,
  trace: t.trace,
  amountRefundedMinor: refundedMinor(t),
  refunds: refunds.map(toRefundResource),
});

export function newTransaction(
  ids: { reference: string },
  context: { merchantId: string; mode: Mode; sessionReference: string | null; gateway: GatewayId; amountMinor: number; currency: Currency; now: number; metadata?: Metadata },
  card: CardSummary | null,
  document: Transaction['document'],
): Transaction {
  const at = new Date(context.now).toISOString();
  return {
    reference: ids.reference,
    merchantId: context.merchantId,
    mode: context.mode,
    sessionReference: context.sessionReference,
    gateway: context.gateway,
    status: 'pending',
    amountMinor: context.amountMinor,
    currency: context.currency,
    card,
    document,
    processorReference: null,
    declineReason: null,
    errorCode: null,
    detail: null,
    otpFailures: 0,
    metadata: context.metadata ?? {},
    trace: [{ at, event: 'created' }],
    createdAt: at,
    updatedAt: at,
  };
}

/** What a network's approval tells beyond its reference: the card's funding and the issuer's authorization code. */
export interface ApprovalFacts {
  processorReference: string;
  funding?: CardFunding;
  authorizationCode?: string;
}

export type TransactionResult =
  | ({ status: 'approved' } & ApprovalFacts)
  | { status: 'declined' | 'failed'; errorCode: string; declineReason: string; detail: string };

export type ResolvedTransaction = Transaction & { status: 'approved' | 'declined' | 'failed' };

/** The transaction once its result is known; the trace records the result. */
export function resolveTransaction(t: Transaction, result: TransactionResult, now: number): ResolvedTransaction {
  const at = new Date(now).toISOString();
  if (result.status === 'approved') {
    const { funding, authorizationCode } = result;
    return {
      ...t,
      status: 'approved',
      processorReference: result.processorReference,
      ...(authorizationCode ? { authorizationCode } : {}),
      ...(funding && t.card ? { card: { ...t.card, funding } } : {}),
      updatedAt: at,
      trace: [...t.trace, { at, event: 'approved' }],
    };
  }
  return {
    ...t,
    status: result.status,
    errorCode: result.errorCode,
    declineReason: result.declineReason,
    detail: result.detail,
    updatedAt: at,
    trace: [...t.trace, { at, event: result.status, detail: `${result.errorCode}: ${result.detail}` }],
  };
}

export const traced = (t: Transaction, event: string, now: number, detail?: string): Transaction => {
  const at = new Date(now).toISOString();
  return { ...t, updatedAt: at, trace: [...t.trace, { at, event, ...(detail ? { detail } : {}) }] };
};

const CHARGE_EVENT = { approved: 'charge.approved', declined: 'charge.declined', failed: 'charge.failed' } as const;

/** charge.approved / charge.declined / charge.failed with the spec's data fields, for a resolved transaction. */
export function chargeEvent(t: ResolvedTransaction, createdAt: string): EventEnvelope {
  return buildEvent(CHARGE_EVENT[t.status], t.mode, createdAt, {
    transactionReference: t.reference,
    amountMinor: t.amountMinor,
    currency: t.currency,
    status: t.status,
    declineReason: t.declineReason,
    errorCode: t.errorCode,
    processorReference: t.processorReference,
    // A pago móvil phone masked: events leave the merchant's servers for wherever its endpoints forward them.
    paymentMethod: methodDetails(t.method, t.pagoMovil, t.processorReference),
    metadata: metadataOf(t),
    // The origin: the checkout's session, or the stored card of a server-to-server charge.
    ...(t.svcToken ? { svcToken: t.svcToken } : { sessionReference: t.sessionReference }),
  });
}
