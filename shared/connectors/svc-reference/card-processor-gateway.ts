import { SERVICE_CODES } from '../../domain/decline-codes.ts';
import { bankRequest } from '../../gateways/bank-http.ts';
import { bearer, chargeStatus, postAuthorize, postCardCharge, refundOperations, verifyOtp, type ChargesEndpoint } from './card-charges.ts';
import { GatewayUnavailableError, type PaymentGateway } from '../../gateways/payment-gateway.ts';

/** Creating the pending payment and cancelling it are idempotent at the processor, so both may be repeated. */
const IDEMPOTENT_RETRIES = 2;

/**
 * The external card processor for USD. A payment is created pending (keyed by our session reference) and the
 * card is charged against it; until then the merchant can cancel it.
 *
 * @example
 * const processor = cardProcessorGateway({ baseUrl: 'https://processor.example/v2', timeoutMs: 8000 });
 */
export function cardProcessorGateway(options: { baseUrl: string; timeoutMs: number }): PaymentGateway {
  const root = options.baseUrl.replace(/\/+$/, '');
  const paymentUrl = (sessionReference: string) => `${root}/payments/${encodeURIComponent(sessionReference)}`;
  const endpoint: ChargesEndpoint = { base: (reference) => paymentUrl(reference.sessionReference), timeoutMs: options.timeoutMs };

  const openPayment: NonNullable<PaymentGateway['openPayment']> = async (payment, account) => {
    const reply = await bankRequest({
      connector: 'svc_reference',
      method: 'POST',
      url: `${root}/payments`,
      body: { reference: payment.sessionReference, amountMinor: payment.amountMinor, currency: payment.currency },
      headers: bearer(account),
      timeoutMs: options.timeoutMs,
      retries: IDEMPOTENT_RETRIES,
    });
    const status = reply.body.status;
    if (reply.status >= 300 || (status !== 'pending' && status !== 'charged' && status !== 'cancelled')) {
      throw new GatewayUnavailableError(`The processor did not create the pending payment (HTTP ${reply.status}).`);
    }
    return status;
  };

  return {
    id: 'card_processor',
    openPayment,
    async charge(request, account) {
      // No payment to charge against means nothing was charged: this attempt simply failed.
      const status = await openPayment(request, account).catch((error: unknown) => {
        if (error instanceof GatewayUnavailableError) return error;
        throw error;
      });
      if (status instanceof GatewayUnavailableError) return { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: status.message };
      if (status === 'cancelled') return { kind: 'failed', code: SERVICE_CODES.PAYMENT_CANCELLED, detail: 'The pending payment was cancelled at the processor.' };
      return postCardCharge(endpoint, request, account);
    },
    verifyOtp: (reference, code, account) => verifyOtp(endpoint, reference, code, account),
    authorize: (reference, account) => postAuthorize(endpoint, reference, account),
    chargeStatus: (reference, account) => chargeStatus(endpoint, reference, account),
    // The processor captures at the end of the day: until then a full refund is a void of the charge.
    ...refundOperations(endpoint, { voids: true }),
    async cancelPayment(sessionReference, account) {
      const reply = await bankRequest({
        connector: 'svc_reference',
        method: 'POST',
        url: `${paymentUrl(sessionReference)}/cancel`,
        headers: bearer(account),
        timeoutMs: options.timeoutMs,
        retries: IDEMPOTENT_RETRIES,
      });
      if (reply.status === 404) return 'not_found';
      if (reply.status === 409 && reply.body.status === 'charged') return 'already_charged';
      if (reply.status === 200 && reply.body.status === 'cancelled') return 'cancelled';
      throw new GatewayUnavailableError(`The processor could not cancel the payment (HTTP ${reply.status}).`);
    },
  };
}
