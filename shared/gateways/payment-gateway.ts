/**
 * The port every connector implements (shared/connectors/). Handlers and the charge flow speak only this; which
 * connector serves a session comes from the merchant's configuration (Merchant.gateways, fixed on the session at
 * creation).
 * Adapters never throw for a bank's answer: a rejection is an outcome. They throw GatewayUnavailableError only
 * where the caller must refuse and change nothing (cancelling a pending payment).
 */
import type { Currency, GatewayId } from '../domain/merchant.ts';
import type { OtpFactor } from '../domain/otp-factor.ts';
import type { PaymentData } from '../domain/payment-data.ts';
import type { ApprovalFacts } from '../domain/transaction.ts';
import type { IncomingPaymentOutcome, IncomingPaymentQuery, PagoMovilPayer, PaymentKeyOutcome } from './pago-movil-port.ts';

/** Which of the bank's environments and whose credentials: test charges move no money. */
export interface BankAccount {
  environment: 'test' | 'live';
  /**
   * The merchant's decrypted credentials, the JSON text as loaded (the connector's credentials schema validated it);
   * null in a test environment that needs none.
   */
  credentials: string | null;
}

/** Who is paying, as the checkout request showed it: networks that score fraud ask for it (Mercantil client_identify). */
export interface PayerClient {
  ipAddress: string;
  userAgent: string;
}

export interface ChargeReference {
  /** Our transaction reference: the idempotency reference the bank deduplicates on. */
  transactionReference: string;
  sessionReference: string;
  /** When the charge was sent (ISO 8601), for networks whose status read is by date (Mercantil search); default now. */
  chargedAt?: string;
  /** A pago móvil charge's two phones (and the payer's bank and document): its status, void and vuelto name them. */
  pagoMovil?: PagoMovilParties;
}

/** Who a pago móvil operation is between: the buyer, and the merchant's phone affiliated at the network. */
export interface PagoMovilParties {
  payer: PagoMovilPayer;
  /** The merchant's affiliated phone, national form (Merchant.pagoMovil.payee.phone). */
  payeePhone: string;
  /** The charge's amount: Mercantil's search of the day's operations is sent it. */
  amountMinor: number;
}

/** A C2P debit: the buyer's account, and the key their bank sent them (used for this one call, never kept). */
export interface C2pPayment {
  type: 'pago_movil_c2p';
  payer: PagoMovilPayer;
  key: string;
}

/** What a charge is paid with: a card (PaymentData, untagged as every card path knows it) or a C2P debit. */
export type ChargePayment = PaymentData | C2pPayment;

/** The card of a charge, or null for a pago móvil one: what a card-only network checks first. */
export const cardOf = (payment: ChargePayment): PaymentData | null => ('type' in payment ? null : payment);

export interface ChargeRequest extends ChargeReference {
  amountMinor: number;
  currency: Currency;
  payment: ChargePayment;
  /** A stored card charged by the merchant without the customer (POST /v1/charges): no CVV, no OTP. */
  merchantInitiated?: boolean;
  /** The buyer's browser, on checkout charges; absent server to server. */
  client?: PayerClient;
}

/**
 * What a network that takes the whole charge again with the buyer's code needs (connector capability
 * cardWithOtp: Mercantil's debit `pay` carries card, CVV and code together): the charge rebuilt by the OTP request.
 */
export interface OtpConfirmation {
  code: string;
  charge: ChargeRequest;
  /** The debit card's account, where the network asks (Mercantil tdd: CC corriente, CA ahorros). */
  accountType?: 'CC' | 'CA';
}

export type GatewayOutcome =
  | ({ kind: 'approved' } & ApprovalFacts)
  /**
   * code: the network's own code (errorCode); reason: the connector's Spanish text for it, else the service's table.
   * factorRefused: the bank refused the buyer's second factor or the debit card's account, not the card: the code
   * step takes another entry.
   */
  | { kind: 'declined' | 'failed'; code: string; detail: string; reason?: string; factorRefused?: true }
  /** factor: what the bank asks for, where its answer says (Mercantil getauth); absent where it sent a code. */
  | { kind: 'otp_required'; factor?: OtpFactor }
  /** The bank's answer is unknown (timeout): the transaction stays pending until reconciled by a status query. */
  | { kind: 'unknown'; detail: string };


/** A refund (or void) of an approved charge: our refund reference is the bank's idempotency key for it. No card data. */
export interface RefundRequest extends ChargeReference {
  refundReference: string;
  amountMinor: number;
  currency: Currency;
  /** The charge's reference in the network's approved answer, for networks that refund by their own id (Stripe's intent). */
  processorReference?: string | null;
  /** When the refund was first sent (ISO 8601), for networks whose status read is by date (Mercantil C2P). */
  refundedAt?: string;
}

export type RefundOutcome =
  | { kind: 'succeeded'; processorReference: string }
  /** Accepted by the bank, to be paid out when it settles: a later status read tells. */
  | { kind: 'pending' }
  | { kind: 'failed'; code: string; detail: string }
  /** No answer in time: the refund stays pending until a status read finds the bank's record. */
  | { kind: 'unknown'; detail: string };

/** What a network that offers pago móvil adds to the port (its profile's pagoMovil lists the methods). */
export interface PagoMovilPort {
  /** Asks the buyer's bank to send them a payment key (an SMS). Throws GatewayUnavailableError when the bank cannot say. */
  sendKey(payer: PagoMovilPayer, account: BankAccount, client: PayerClient): Promise<PaymentKeyOutcome>;
  /**
   * P2C: searches the payments the merchant received at `payeePhone` (its affiliated phone) for the buyer's reference.
   * Safe to repeat. Throws GatewayUnavailableError when the bank cannot say.
   */
  findIncoming(query: IncomingPaymentQuery, payeePhone: string, account: BankAccount): Promise<IncomingPaymentOutcome>;
}

export interface PaymentGateway {
  readonly id: GatewayId;
  /** Only networks that offer pago móvil: the C2P debit itself is `charge` with a C2pPayment. */
  pagoMovil?: PagoMovilPort;
  /** Never retried: a second POST could charge twice; the bank deduplicates on transactionReference anyway. */
  charge(request: ChargeRequest, account: BankAccount): Promise<GatewayOutcome>;
  /** Checks the buyer's code; moves no money. Throws GatewayUnavailableError when the bank cannot say. */
  verifyOtp(reference: ChargeReference, code: string, account: BankAccount): Promise<'valid' | 'invalid'>;
  /** Sends a charge whose OTP was confirmed; like charge, never retried. `confirmation` only for cardWithOtp networks. */
  authorize(reference: ChargeReference, account: BankAccount, confirmation?: OtpConfirmation): Promise<GatewayOutcome>;
  /** Safe to retry: reads the bank's record of a charge, for reconciliation. */
  chargeStatus(reference: ChargeReference, account: BankAccount): Promise<GatewayOutcome | { kind: 'not_found' }>;
  /** Never retried, like charge: the bank deduplicates on refundReference, so a repeat is answered, never paid twice. */
  refund(request: RefundRequest, account: BankAccount): Promise<RefundOutcome>;
  /**
   * Only gateways that cancel a charge not yet settled (capability voids, shared/domain/refund.ts): the whole amount,
   * same day. 'not_voidable' when the bank has settled the charge already: refund it instead.
   */
  voidCharge?(request: RefundRequest, account: BankAccount): Promise<RefundOutcome | { kind: 'not_voidable' }>;
  /** Safe to retry: the bank's record of a refund or void, by our refund reference, for reconciliation. */
  refundStatus(request: RefundRequest, account: BankAccount): Promise<RefundOutcome | { kind: 'not_found' }>;
  /** Only gateways whose payments are created pending (the USD processor): creates it, idempotently per session. */
  openPayment?(payment: { sessionReference: string; amountMinor: number; currency: Currency }, account: BankAccount): Promise<'pending' | 'charged' | 'cancelled'>;
  /**
   * Only gateways whose payments are created pending (the USD processor): cancels the session's pending payment.
   * 'already_charged' when the processor charged it first; throws GatewayUnavailableError when it cannot say.
   */
  cancelPayment?(
    sessionReference: string,
    account: BankAccount,
    /** The session's payment as opened, for processors that find it by repeating its idempotent creation (Stripe). */
    payment?: { sessionReference: string; amountMinor: number; currency: Currency },
  ): Promise<'cancelled' | 'already_charged' | 'not_found'>;
}

export class GatewayUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatewayUnavailableError';
  }
}

export class GatewayTimeoutError extends GatewayUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatewayTimeoutError';
  }
}
