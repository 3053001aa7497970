/**
 * The sandbox bank: one local HTTP server that plays the reference protocol's three gateways (connector
 * svc_reference), with the test cards of test-cards.ts. It keeps every charge by our reference (a repeat never charges twice) and records the calls
 * it received, so tests can prove that a charge reached it exactly once. Never stores a card number or CVV.
 *
 *   /bank_direct/{test|live}/charges[/{reference}[/otp|/authorize]]   direct-API VES bank with its test environment
 *   /bank_otp/charges[/{reference}[/otp|/authorize]]                  VES bank that confirms every charge with an OTP
 *   /card_processor/payments[/{session}[/cancel|/charges[/...]]]      USD processor: pending payments, then charges
 *
 * A charge answers approved, declined, error or otp_required; after otp_required, POST .../otp {code} answers
 * otp_valid or otp_invalid, and POST .../authorize gives the charge's result.
 *
 * Refunds of an approved charge: POST .../charges/{reference}/refunds {reference, amountMinor, currency} answers
 * succeeded, pending or failed, keyed by the refund reference (a repeat answers the first result, never refunds
 * twice); GET .../charges/{reference}/refunds/{refundReference} reads it. The card processor also voids a charge of
 * the same day, whole: POST .../charges/{reference}/void (not_voidable on a later day). The card of the charge decides
 * (test-cards.ts: refunds that fail, stay pending until settled, or time out).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../../shared/clock.ts';
import { PROCESSOR_CODES } from '../../../shared/domain/decline-codes.ts';
import { randomToken } from '../../../shared/ids.ts';
import { startNetworkServer, type HoldAnswer } from '../network-server.ts';
import { cardBehaviour, OTP_CODE, REFUND_REFUSED, refundBehaviour, type CardBehaviour, type RefundBehaviour } from './test-cards.ts';

/** The gateways of the reference protocol (connector svc_reference) that this bank plays. */
export type ReferenceGatewayId = 'bank_direct' | 'bank_otp' | 'card_processor';
type GatewayId = ReferenceGatewayId;

export interface BankCall {
  gateway: GatewayId;
  environment: 'test' | 'live';
  operation: 'charge' | 'otp' | 'authorize' | 'status' | 'create_payment' | 'cancel' | 'refund' | 'void' | 'refund_status';
  /** Our transaction reference, the session reference for payment operations, the refund reference for refund ones. */
  reference: string;
}

export interface BankFaults {
  /** Cancellations answer 503 and change nothing. */
  cancelFails: boolean;
  /** The next N charge requests answer 503 before doing anything. */
  failNextCharges: number;
  /** The next N refund (or void) requests answer 503 before doing anything. */
  failNextRefunds: number;
}

export interface SandboxBank {
  url: string;
  /** Base URLs per reference gateway, for the service's GatewayConfig. */
  baseUrls: Record<GatewayId, string>;
  calls(filter?: Partial<BankCall>): BankCall[];
  setFaults(faults: Partial<BankFaults>): void;
  /** The processor charges a pending payment by itself (as when the buyer paid on the processor's own page). */
  markPaymentCharged(sessionReference: string): void;
  /**
   * The OTP bank asks the customer to verify this card again: its merchant-initiated charges are soft-declined
   * (0065) until the customer confirms a payment with it by OTP.
   */
  demandReverification(cardNumber: string): void;
  close(): Promise<void>;
}

type Reply = { status: number; body: Record<string, unknown> };

interface ChargeRecord {
  reply: Reply;
  /** What happens once the OTP is confirmed; null when no OTP is awaited. */
  afterOtp: CardBehaviour | null;
  otpVerified: boolean;
  paymentOf: string | null;
  /** Hash of the card (never the number), for the OTP bank's verification record. */
  cardHash: string;
  amountMinor: number;
  /** Sandbox-clock time of the charge: a void is allowed the same UTC day only. */
  chargedAt: number;
  refunds: RefundBehaviour;
}

interface RefundRecord {
  amountMinor: number;
  status: 'succeeded' | 'pending' | 'failed';
  refundId: string;
  /** When a pending refund is paid out (sandbox clock). */
  settlesAt: number;
}

/** How long a pending refund waits for the bank's settlement. */
export const REFUND_SETTLEMENT_MS = 10 * 60_000;

export async function startSandboxBank({ clock, host = '127.0.0.1', port = 0 }: { clock: Clock; host?: string; port?: number }): Promise<SandboxBank> {
  const charges = new Map<string, ChargeRecord>();
  /** By charge key and refund reference. */
  const refunds = new Map<string, RefundRecord>();
  const payments = new Map<string, { status: 'pending' | 'charged' | 'cancelled'; amountMinor: number; currency: string }>();
  const calls: BankCall[] = [];
  const faults: BankFaults = { cancelFails: false, failNextCharges: 0, failNextRefunds: 0 };
  /** The OTP bank's verified cards, by hash of the number: a confirmed OTP verifies the card for charges without the customer. */
  const verified = new Set<string>();
  const cardHash = (number: string) => createHash('sha256').update(number).digest('hex');

  const replyFor = (behaviour: CardBehaviour): Reply => {
    switch (behaviour.kind) {
      case 'approve':
      case 'timeout':
        return { status: 200, body: { result: 'approved', authorization: `AUTH${randomToken(10).toUpperCase()}` } };
      case 'decline':
        return { status: 200, body: { result: 'declined', code: behaviour.code, message: behaviour.message } };
      case 'error':
        return { status: 200, body: { result: 'error', code: behaviour.code, message: behaviour.message } };
      case 'otp':
        return { status: 200, body: { result: 'otp_required' } };
    }
  };

  const charge = (key: string, gateway: GatewayId, body: Record<string, unknown>, paymentOf: string | null): { reply: Reply; hold: boolean } => {
    const existing = charges.get(key);
    if (existing) return { reply: existing.reply, hold: false };
    const card = body.card as { number: string; expMonth: number; expYear: number } | undefined;
    if (!card || typeof body.amountMinor !== 'number') return { reply: { status: 400, body: { result: 'error', code: '0030', message: 'Format error' } }, hold: false };
    const behaviour = cardBehaviour(card, clock.now());
    const hash = cardHash(card.number);
    if (body.initiatedBy === 'merchant') {
      // Without the customer there is nobody to enter a code: only a card the customer verified is charged.
      const reply = verified.has(hash)
        ? replyFor(behaviour.kind === 'otp' ? { kind: 'approve' } : behaviour)
        : { status: 200, body: { result: 'declined', code: PROCESSOR_CODES.AUTHENTICATION_REQUIRED, message: 'Cardholder authentication required' } };
      charges.set(key, { reply, afterOtp: null, otpVerified: false, paymentOf, cardHash: hash, ...refundTerms(card.number, body.amountMinor) });
      // The timeout card is charged and its answer held, as when the customer pays with it.
      return { reply, hold: verified.has(hash) && behaviour.kind === 'timeout' };
    }
    // The OTP bank asks for a code on every card it would otherwise accept.
    const needsOtp = behaviour.kind === 'otp' || (gateway === 'bank_otp' && behaviour.kind !== 'decline' && behaviour.kind !== 'error');
    const afterOtp: CardBehaviour | null = needsOtp ? (behaviour.kind === 'otp' ? { kind: 'approve' } : behaviour) : null;
    const reply = needsOtp ? replyFor({ kind: 'otp' }) : replyFor(behaviour);
    charges.set(key, { reply, afterOtp, otpVerified: false, paymentOf, cardHash: hash, ...refundTerms(card.number, body.amountMinor) });
    if (paymentOf && reply.body.result === 'approved') payments.get(paymentOf)!.status = 'charged';
    return { reply, hold: behaviour.kind === 'timeout' && !needsOtp };
  };

  /** What a refund of this charge needs later: kept instead of the card, which the bank never stores. */
  const refundTerms = (cardNumber: string, amountMinor: number) => ({ amountMinor, chargedAt: clock.now(), refunds: refundBehaviour(cardNumber) });

  const refundReply = (refund: RefundRecord): Reply => {
    if (refund.status === 'pending' && clock.now() >= refund.settlesAt) refund.status = 'succeeded';
    if (refund.status === 'failed') return { status: 200, body: { result: 'failed', code: REFUND_REFUSED.code, message: REFUND_REFUSED.message, refundId: refund.refundId } };
    return { status: 200, body: { result: refund.status, refundId: refund.refundId } };
  };

  /** A refund or void of an approved charge, once per refund reference, never more than the charge in total. */
  const refund = (chargeKey: string, action: 'refunds' | 'void', body: Record<string, unknown>): { reply: Reply; hold: boolean } => {
    const record = charges.get(chargeKey);
    if (!record) return { reply: notFound(), hold: false };
    const key = `${chargeKey}#${String(body.reference ?? '')}`;
    const existing = refunds.get(key);
    if (existing) return { reply: refundReply(existing), hold: false };
    const amountMinor = body.amountMinor;
    if (typeof body.reference !== 'string' || typeof amountMinor !== 'number' || !Number.isInteger(amountMinor) || amountMinor <= 0) {
      return { reply: { status: 400, body: { result: 'error', code: '0030', message: 'Format error' } }, hold: false };
    }
    if (record.reply.body.result !== 'approved') return { reply: { status: 409, body: { result: 'failed', code: '0012', message: 'Invalid transaction: the charge was not approved' } }, hold: false };
    if (action === 'void') {
      const sameDay = new Date(record.chargedAt).toISOString().slice(0, 10) === new Date(clock.now()).toISOString().slice(0, 10);
      if (!sameDay) return { reply: { status: 409, body: { result: 'not_voidable', message: 'The charge is settled: refund it instead' } }, hold: false };
      if (amountMinor !== record.amountMinor) return { reply: { status: 400, body: { result: 'error', code: '0013', message: 'A void cancels the whole charge' } }, hold: false };
    }
    const refunded = [...refunds.entries()].filter(([k, r]) => k.startsWith(`${chargeKey}#`) && r.status !== 'failed').reduce((sum, [, r]) => sum + r.amountMinor, 0);
    if (refunded + amountMinor > record.amountMinor) return { reply: { status: 409, body: { result: 'failed', code: '0013', message: 'Invalid amount: more than remains of the charge' } }, hold: false };
    const pending = record.refunds === 'pending' && action === 'refunds';
    const created: RefundRecord = {
      amountMinor,
      status: record.refunds === 'fail' ? 'failed' : pending ? 'pending' : 'succeeded',
      refundId: `${action === 'void' ? 'VOID' : 'RFD'}${randomToken(10).toUpperCase()}`,
      settlesAt: clock.now() + REFUND_SETTLEMENT_MS,
    };
    refunds.set(key, created);
    return { reply: refundReply(created), hold: record.refunds === 'timeout' };
  };

  const verifyOtp = (key: string, code: unknown): Reply => {
    const record = charges.get(key);
    if (!record) return notFound();
    if (!record.afterOtp) return { status: 409, body: { result: 'error', message: 'No OTP is awaited for this charge' } };
    if (code !== OTP_CODE) return { status: 200, body: { result: 'otp_invalid' } };
    record.otpVerified = true;
    return { status: 200, body: { result: 'otp_valid' } };
  };

  /** Repeating an authorization returns the first result: a charge is made once. */
  const authorize = (key: string): Reply => {
    const record = charges.get(key);
    if (!record) return notFound();
    if (!record.afterOtp) return record.reply;
    if (!record.otpVerified) return { status: 409, body: { result: 'error', message: 'The OTP was not verified' } };
    record.reply = replyFor(record.afterOtp);
    record.afterOtp = null;
    if (record.reply.body.result === 'approved') verified.add(record.cardHash);
    if (record.paymentOf && record.reply.body.result === 'approved') payments.get(record.paymentOf)!.status = 'charged';
    return record.reply;
  };

  // A held answer: done, but it arrives too late; the caller times out and must reconcile by status.
  const handle = async (req: IncomingMessage, res: ServerResponse, holdAnswer: HoldAnswer): Promise<Reply | null> => {
    const body = await readJson(req);
    const segments = new URL(req.url ?? '/', 'http://bank').pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const [gatewayName, ...rest] = segments;
    const live = req.headers.authorization !== undefined;

    let gateway: GatewayId;
    let environment: 'test' | 'live' = 'live';
    let chargePath: string[];
    let paymentOf: string | null = null;
    if (gatewayName === 'bank_direct') {
      gateway = 'bank_direct';
      const env = rest.shift();
      if (env !== 'test' && env !== 'live') return notFound();
      environment = env;
      chargePath = rest;
    } else if (gatewayName === 'bank_otp') {
      gateway = 'bank_otp';
      chargePath = rest;
    } else if (gatewayName === 'card_processor' && rest[0] === 'payments') {
      gateway = 'card_processor';
      const session = rest[1];
      if (session === undefined && req.method === 'POST') return createPayment(body);
      if (session === undefined) return notFound();
      if (rest[2] === 'cancel' && req.method === 'POST') return cancelPayment(session);
      if (rest[2] !== 'charges' || !payments.has(session)) return notFound();
      paymentOf = session;
      chargePath = rest.slice(2);
    } else {
      return notFound();
    }
    if (environment === 'live' && !live) return { status: 401, body: { result: 'error', code: '0063', message: 'Missing merchant credentials' } };

    const [collection, reference, action, refundReference] = chargePath;
    if (collection !== 'charges') return notFound();
    const keyOf = (ref: string) => `${gateway}/${environment}/${paymentOf ?? ''}/${ref}`;
    if (reference === undefined && req.method === 'POST') {
      const ref = String(body.reference ?? '');
      calls.push({ gateway, environment, operation: 'charge', reference: ref });
      if (faults.failNextCharges > 0) {
        faults.failNextCharges--;
        return { status: 503, body: { result: 'error', message: 'Service unavailable' } };
      }
      if (paymentOf && payments.get(paymentOf)!.status !== 'pending' && !charges.has(keyOf(ref))) {
        return { status: 200, body: { result: 'error', code: '0096', message: `Payment is ${payments.get(paymentOf)!.status}` } };
      }
      const { reply, hold } = charge(keyOf(ref), gateway, body, paymentOf);
      if (hold) await holdAnswer(res);
      return reply;
    }
    if (reference !== undefined && action === undefined && req.method === 'GET') {
      calls.push({ gateway, environment, operation: 'status', reference });
      return charges.get(keyOf(reference))?.reply ?? notFound();
    }
    if (reference !== undefined && action === 'otp' && req.method === 'POST') {
      calls.push({ gateway, environment, operation: 'otp', reference });
      return verifyOtp(keyOf(reference), body.code);
    }
    if (reference !== undefined && action === 'authorize' && req.method === 'POST') {
      calls.push({ gateway, environment, operation: 'authorize', reference });
      return authorize(keyOf(reference));
    }
    const refundAction = action === 'refunds' && refundReference === undefined ? 'refunds' : action === 'void' && gateway === 'card_processor' ? 'void' : null;
    if (reference !== undefined && refundAction && req.method === 'POST') {
      calls.push({ gateway, environment, operation: refundAction === 'void' ? 'void' : 'refund', reference: String(body.reference ?? '') });
      if (faults.failNextRefunds > 0) {
        faults.failNextRefunds--;
        return { status: 503, body: { result: 'error', message: 'Service unavailable' } };
      }
      const { reply, hold } = refund(keyOf(reference), refundAction, body);
      if (hold) await holdAnswer(res);
      return reply;
    }
    if (reference !== undefined && action === 'refunds' && refundReference !== undefined && req.method === 'GET') {
      calls.push({ gateway, environment, operation: 'refund_status', reference: refundReference });
      const stored = refunds.get(`${keyOf(reference)}#${refundReference}`);
      return stored ? refundReply(stored) : notFound();
    }
    return notFound();

    function createPayment(input: Record<string, unknown>): Reply {
      const ref = String(input.reference ?? '');
      calls.push({ gateway: 'card_processor', environment: 'live', operation: 'create_payment', reference: ref });
      if (!payments.has(ref)) payments.set(ref, { status: 'pending', amountMinor: Number(input.amountMinor), currency: String(input.currency) });
      return { status: 200, body: { id: ref, status: payments.get(ref)!.status } };
    }

    function cancelPayment(session: string): Reply {
      calls.push({ gateway: 'card_processor', environment: 'live', operation: 'cancel', reference: session });
      if (faults.cancelFails) return { status: 503, body: { message: 'Cancellation service unavailable' } };
      const payment = payments.get(session);
      if (!payment) return notFound();
      if (payment.status === 'charged') return { status: 409, body: { status: 'charged' } };
      payment.status = 'cancelled';
      return { status: 200, body: { status: 'cancelled' } };
    }
  };

  const { url, close } = await startNetworkServer(handle, { host, port });

  return {
    url,
    baseUrls: { bank_direct: `${url}/bank_direct`, bank_otp: `${url}/bank_otp`, card_processor: `${url}/card_processor` },
    calls: (filter = {}) => calls.filter((c) => Object.entries(filter).every(([k, v]) => c[k as keyof BankCall] === v)),
    setFaults: (changes) => Object.assign(faults, changes),
    demandReverification(cardNumber) {
      verified.delete(cardHash(cardNumber));
    },
    markPaymentCharged(sessionReference) {
      const payment = payments.get(sessionReference);
      if (payment) payment.status = 'charged';
    },
    close,
  };
}

const notFound = (): Reply => ({ status: 404, body: { result: 'error', message: 'Not found' } });

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
