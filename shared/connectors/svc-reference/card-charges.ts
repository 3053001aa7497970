/**
 * The reference protocol (svc_reference): the charge protocol this project defined for its own sandbox bank (card
 * charge, OTP confirmation, status by our reference, refunds), spoken by its three gateways against a base URL that
 * each adapter chooses. Kept in one place so the adapters differ only where the gateways do. No real network speaks it.
 */
import type { BankAccount, ChargeReference, ChargeRequest, GatewayOutcome, PaymentGateway, RefundOutcome, RefundRequest } from '../../gateways/payment-gateway.ts';
import { cardOf, GatewayTimeoutError, GatewayUnavailableError } from '../../gateways/payment-gateway.ts';
import { bankRequest, type BankReply } from '../../gateways/bank-http.ts';
import { PROCESSOR_CODES, SERVICE_CODES } from '../../domain/decline-codes.ts';

export interface ChargesEndpoint {
  /** The URL under which this charge's resources live: {base}/charges, {base}/charges/{reference}. */
  base(reference: ChargeReference): string;
  timeoutMs: number;
}

/** The live credentials object as loaded, base64url-encoded, as a bearer token; none in the test environment. */
export const bearer = (account: BankAccount): Record<string, string> =>
  account.credentials ? { authorization: `Bearer ${Buffer.from(account.credentials).toString('base64url')}` } : {};

/**
 * Status reads are repeated this many times on a network error or a 5xx; a 5xx after them means the bank cannot say
 * (GatewayUnavailableError), never that the charge or refund failed.
 */
const STATUS_RETRIES = 2;

function toOutcome(reply: BankReply): GatewayOutcome | { kind: 'not_found' } {
  const { body } = reply;
  if (reply.status === 404) return { kind: 'not_found' };
  switch (body.result) {
    case 'approved':
      return { kind: 'approved', processorReference: String(body.authorization) };
    case 'declined':
    case 'error':
      return { kind: body.result === 'declined' ? 'declined' : 'failed', code: String(body.code ?? PROCESSOR_CODES.PROCESSOR_ERROR), detail: String(body.message ?? '') };
    case 'otp_required':
      return { kind: 'otp_required' };
    case 'processing':
      return { kind: 'unknown', detail: 'The bank is still processing the charge.' };
    default:
      return { kind: 'failed', code: PROCESSOR_CODES.PROCESSOR_ERROR, detail: `Unexpected bank answer (HTTP ${reply.status}).` };
  }
}

export async function chargeStatus(endpoint: ChargesEndpoint, reference: ChargeReference, account: BankAccount): Promise<GatewayOutcome | { kind: 'not_found' }> {
  const reply = await bankRequest({
    connector: 'svc_reference',
    method: 'GET',
    url: `${endpoint.base(reference)}/charges/${encodeURIComponent(reference.transactionReference)}`,
    headers: bearer(account),
    timeoutMs: endpoint.timeoutMs,
    retries: STATUS_RETRIES,
  });
  if (reply.status >= 500) throw new GatewayUnavailableError(`The bank could not read the charge (HTTP ${reply.status}).`);
  return toOutcome(reply);
}

type NotFound = { kind: 'not_found' };
type Unknown = { kind: 'unknown'; detail: string };

/**
 * A POST that may have moved money (a charge, an authorisation, a refund): never repeated. A timeout leaves the
 * outcome unknown (pending, reconciled later by a status read); a 5xx or a refused connection is settled by asking
 * the bank for its record at once. `unknownTarget`: the POST answered 404; `noRecord`: it failed and left no record.
 */
async function sendOnce<O extends { kind: string }>(
  post: () => Promise<BankReply>,
  { read, status, unknownTarget, noRecord }: { read(reply: BankReply): O | NotFound; status(): Promise<O | NotFound>; unknownTarget: O; noRecord: O },
): Promise<O | Unknown> {
  try {
    const reply = await post();
    if (reply.status < 500) {
      const outcome = read(reply);
      return outcome.kind === 'not_found' ? unknownTarget : (outcome as O);
    }
  } catch (error) {
    if (error instanceof GatewayTimeoutError) return { kind: 'unknown', detail: error.message };
    if (!(error instanceof GatewayUnavailableError)) throw error;
  }
  try {
    const record = await status();
    return record.kind === 'not_found' ? noRecord : (record as O);
  } catch (error) {
    if (!(error instanceof GatewayUnavailableError)) throw error;
    return { kind: 'unknown', detail: `The bank failed and its record could not be read: ${error.message}` };
  }
}

const postCharge = (endpoint: ChargesEndpoint, reference: ChargeReference, path: string, body: unknown, account: BankAccount): Promise<GatewayOutcome> =>
  sendOnce<GatewayOutcome>(() => bankRequest({ connector: 'svc_reference', method: 'POST', url: `${endpoint.base(reference)}${path}`, body, headers: bearer(account), timeoutMs: endpoint.timeoutMs }), {
    read: toOutcome,
    status: () => chargeStatus(endpoint, reference, account),
    unknownTarget: { kind: 'failed', code: PROCESSOR_CODES.PROCESSOR_ERROR, detail: 'The bank does not know this charge.' },
    noRecord: { kind: 'failed', code: PROCESSOR_CODES.PROCESSOR_ERROR, detail: 'The bank failed to process the charge and has no record of it.' },
  });

export function postCardCharge(endpoint: ChargesEndpoint, request: ChargeRequest, account: BankAccount): Promise<GatewayOutcome> {
  const payment = cardOf(request.payment);
  // Never reached: these networks offer no pago móvil (their profiles), so no C2P charge is routed to them.
  if (!payment) throw new Error(`${request.transactionReference}: the svc_reference networks take cards only`);
  const { cvv, ...withoutCvv } = payment.card;
  return postCharge(
    endpoint,
    request,
    '/charges',
    {
      reference: request.transactionReference,
      amountMinor: request.amountMinor,
      currency: request.currency,
      // A merchant-initiated charge of a stored card has no CVV to send: the customer's verification stands in for it.
      ...(request.merchantInitiated ? { card: withoutCvv, initiatedBy: 'merchant' } : { card: { ...withoutCvv, cvv } }),
      document: payment.document,
    },
    account,
  );
}

export const postAuthorize = (endpoint: ChargesEndpoint, reference: ChargeReference, account: BankAccount): Promise<GatewayOutcome> =>
  postCharge(endpoint, reference, `/charges/${encodeURIComponent(reference.transactionReference)}/authorize`, {}, account);

/** Verifying a code moves no money, but a wrong-code count must not double: it is not retried either. */
export async function verifyOtp(endpoint: ChargesEndpoint, reference: ChargeReference, code: string, account: BankAccount): Promise<'valid' | 'invalid'> {
  const reply = await bankRequest({
    connector: 'svc_reference',
    method: 'POST',
    url: `${endpoint.base(reference)}/charges/${encodeURIComponent(reference.transactionReference)}/otp`,
    body: { code },
    headers: bearer(account),
    timeoutMs: endpoint.timeoutMs,
  });
  if (reply.body.result === 'otp_valid') return 'valid';
  if (reply.body.result === 'otp_invalid') return 'invalid';
  throw new GatewayUnavailableError(`The bank did not verify the OTP (HTTP ${reply.status}).`);
}

/**
 * The refund protocol the three banks share: POST {charge}/refunds (or /void) with our refund reference, which the
 * bank deduplicates on, and GET {charge}/refunds/{refundReference} for its record, refunds and voids alike.
 */
function toRefundOutcome(reply: BankReply): RefundOutcome | { kind: 'not_found' } | { kind: 'not_voidable' } {
  const { body } = reply;
  if (reply.status === 404) return { kind: 'not_found' };
  switch (body.result) {
    case 'succeeded':
      return { kind: 'succeeded', processorReference: String(body.refundId) };
    case 'pending':
      return { kind: 'pending' };
    case 'not_voidable':
      return { kind: 'not_voidable' };
    case 'failed':
    case 'error':
      return { kind: 'failed', code: String(body.code ?? PROCESSOR_CODES.PROCESSOR_ERROR), detail: String(body.message ?? '') };
    default:
      return { kind: 'failed', code: PROCESSOR_CODES.PROCESSOR_ERROR, detail: `Unexpected bank answer to a refund (HTTP ${reply.status}).` };
  }
}

const chargeUrl = (endpoint: ChargesEndpoint, request: RefundRequest) => `${endpoint.base(request)}/charges/${encodeURIComponent(request.transactionReference)}`;

export async function refundStatus(endpoint: ChargesEndpoint, request: RefundRequest, account: BankAccount): Promise<RefundOutcome | { kind: 'not_found' }> {
  const reply = await bankRequest({
    connector: 'svc_reference',
    method: 'GET',
    url: `${chargeUrl(endpoint, request)}/refunds/${encodeURIComponent(request.refundReference)}`,
    headers: bearer(account),
    timeoutMs: endpoint.timeoutMs,
    retries: STATUS_RETRIES,
  });
  if (reply.status >= 500) throw new GatewayUnavailableError(`The bank could not read the refund (HTTP ${reply.status}).`);
  const outcome = toRefundOutcome(reply);
  return outcome.kind === 'not_voidable' ? { kind: 'failed', code: PROCESSOR_CODES.PROCESSOR_ERROR, detail: 'Unexpected bank answer to a refund status read.' } : outcome;
}

/** A refund or void, sent once like a charge (sendOnce); a refund the bank never recorded never arrived. */
const postRefund = (endpoint: ChargesEndpoint, request: RefundRequest, account: BankAccount, action: 'refunds' | 'void'): Promise<RefundOutcome | { kind: 'not_voidable' }> =>
  sendOnce<RefundOutcome | { kind: 'not_voidable' }>(
    () =>
      bankRequest({
        connector: 'svc_reference',
        method: 'POST',
        url: `${chargeUrl(endpoint, request)}/${action}`,
        body: { reference: request.refundReference, amountMinor: request.amountMinor, currency: request.currency },
        headers: bearer(account),
        timeoutMs: endpoint.timeoutMs,
      }),
    {
      read: toRefundOutcome,
      status: () => refundStatus(endpoint, request, account),
      unknownTarget: { kind: 'failed', code: PROCESSOR_CODES.PROCESSOR_ERROR, detail: 'The bank does not know the charge to refund.' },
      noRecord: { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: 'The bank failed to process the refund and has no record of it.' },
    },
  );

/** The refund operations of an adapter whose charges live under `endpoint`; voids only where the bank offers them. */
export function refundOperations(endpoint: ChargesEndpoint, { voids }: { voids: boolean }): Pick<PaymentGateway, 'refund' | 'voidCharge' | 'refundStatus'> {
  return {
    refund: async (request, account) => {
      const outcome = await postRefund(endpoint, request, account, 'refunds');
      return outcome.kind === 'not_voidable' ? { kind: 'failed', code: PROCESSOR_CODES.PROCESSOR_ERROR, detail: 'Unexpected bank answer to a refund.' } : outcome;
    },
    ...(voids ? { voidCharge: (request, account) => postRefund(endpoint, request, account, 'void') } : {}),
    refundStatus: (request, account) => refundStatus(endpoint, request, account),
  };
}
