/**
 * The PaymentGateway of Banco Mercantil's card API: credit cards (tdc) are paid with one `pay`; debit cards (tdd) ask
 * `getauth` first (session otp_requested) and are paid with `pay` carrying the card, its CVV and the buyer's code
 * together once the buyer gives it (OtpConfirmation). `search` by our invoice is the only status read. The bank
 * publishes no card refund or void: the capabilities say so and the refund flow answers 409 before reaching here.
 */
import { SERVICE_CODES } from '../../domain/decline-codes.ts';
import { bankRequest, type BankReply } from '../../gateways/bank-http.ts';
import {
  GatewayUnavailableError,
  type BankAccount,
  type ChargeReference,
  type GatewayOutcome,
  type PayerClient,
  type PaymentGateway,
} from '../../gateways/payment-gateway.ts';
import type { GatewayUrls } from '../connector.ts';
import { credentialSetFor, type MercantilCredentialSet } from './credentials.ts';
import { getauthOutcome, MERCANTIL_CODES, payOutcome, REASONS, searchOutcome } from './outcomes.ts';
import { bolivares, getauthBody, invoiceNumber, paymentMethod, payBody, searchBody, type PayInput } from './requests.ts';
import { sentOnce } from './sent-once.ts';
import { PATHS } from './wire.ts';

/** Status reads are repeated this many times on a network error or a 5xx. */
const SEARCH_RETRIES = 2;

/** Who asks when no buyer does (a reconciliation): the bank's samples always send client_identify; its docs say nothing of this case. */
const SERVICE_CLIENT: PayerClient = { ipAddress: '', userAgent: 'svc-payments reconciliation' };

const failed = (code: string, detail: string): GatewayOutcome => ({ kind: 'failed', code, detail, reason: REASONS.failed });

export interface MercantilOptions {
  urls: GatewayUrls;
  timeoutMs: number;
}

/**
 * @example
 * const gateway = mercantilGateway({ urls: { live: 'https://apimbu.mercantilbanco.com/mercantil-banco/prod/v1', test: '.../sandbox/v1' }, timeoutMs: 8000 });
 */
export function mercantilGateway(options: MercantilOptions): PaymentGateway {
  const post = (account: BankAccount, credentials: MercantilCredentialSet, path: string, body: unknown, retries = 0): Promise<BankReply> =>
    bankRequest({
      connector: 'mercantil',
      method: 'POST',
      url: `${options.urls[account.environment].replace(/\/+$/, '')}${path}`,
      body,
      headers: { 'X-IBM-Client-Id': credentials.clientId },
      timeoutMs: options.timeoutMs,
      retries,
    });

  /** The bank's record of a charge; throws GatewayUnavailableError when the bank cannot say. */
  const record = async (account: BankAccount, credentials: MercantilCredentialSet, reference: ChargeReference, client: PayerClient, amount?: string) => {
    const chargedAt = reference.chargedAt ? new Date(reference.chargedAt) : new Date();
    const reply = await post(account, credentials, PATHS.search, searchBody(credentials, client, reference.transactionReference, chargedAt), SEARCH_RETRIES);
    const outcome = searchOutcome(reply, invoiceNumber(reference.transactionReference), amount);
    if (!outcome) throw new GatewayUnavailableError(`Mercantil's search did not answer with a record list (HTTP ${reply.status}).`);
    return outcome;
  };

  /** A `pay`, sent once and settled by search where its answer leaves doubt (sent-once.ts). */
  const pay = (account: BankAccount, credentials: MercantilCredentialSet, reference: ChargeReference, input: PayInput): Promise<GatewayOutcome> => {
    const amount = bolivares(input.amountMinor);
    return sentOnce(
      () => post(account, credentials, PATHS.pay, payBody(credentials, input)),
      payOutcome,
      () => record(account, credentials, { ...reference, chargedAt: new Date().toISOString() }, input.client, amount),
    );
  };

  return {
    id: 'mercantil',
    async charge(request, account) {
      const credentials = credentialSetFor(account);
      if ('problem' in credentials) return failed(MERCANTIL_CODES.CREDENTIALS_INVALID, credentials.problem);
      if (!request.client) return failed(MERCANTIL_CODES.GATEWAY_ERROR, "Mercantil needs the buyer's IP address and browser agent (client_identify).");
      if (paymentMethod(request.payment.card.number) === 'tdc') {
        return pay(account, credentials, request, { transactionReference: request.transactionReference, amountMinor: request.amountMinor, payment: request.payment, client: request.client });
      }
      // Debit: getauth asks the bank which second factor the buyer gives (today the clave telefónica); it moves no money.
      try {
        return getauthOutcome(await post(account, credentials, PATHS.getauth, getauthBody(credentials, request.client, request.payment)), credentials.secretKey);
      } catch (error) {
        if (!(error instanceof GatewayUnavailableError)) throw error;
        return failed(SERVICE_CODES.PROCESSOR_UNAVAILABLE, `Mercantil did not answer getauth: ${error.message}`);
      }
    },
    // The bank checks the code only inside `pay`: here only its shape, so a typo costs an entry, not an attempt.
    verifyOtp: async (_reference, code) => (/^\d{4,12}$/.test(code) ? 'valid' : 'invalid'),
    async authorize(reference, account, confirmation) {
      const credentials = credentialSetFor(account);
      if ('problem' in credentials) return failed(MERCANTIL_CODES.CREDENTIALS_INVALID, credentials.problem);
      if (!confirmation?.charge.client || !confirmation.accountType) {
        return failed(MERCANTIL_CODES.GATEWAY_ERROR, "Mercantil's debit payment needs the card, its CVV, its account type and the buyer's browser with the code.");
      }
      const { charge, code, accountType } = confirmation;
      return pay(account, credentials, reference, {
        transactionReference: reference.transactionReference,
        amountMinor: charge.amountMinor,
        payment: charge.payment,
        client: charge.client!,
        debit: { code, accountType },
      });
    },
    async chargeStatus(reference, account) {
      const credentials = credentialSetFor(account);
      if ('problem' in credentials) throw new GatewayUnavailableError(credentials.problem);
      return record(account, credentials, reference, SERVICE_CLIENT);
    },
    // Never reached: the mercantil gateway declares no refunds, so a refund is refused with 409 refund_unsupported first.
    refund: async () => ({ kind: 'failed', code: 'refund_unsupported', detail: 'Banco Mercantil publishes no refund of a card payment.' }),
    refundStatus: async () => ({ kind: 'not_found' }),
  };
}
