/**
 * The PaymentGateway of Banco Mercantil: its card API and its pago móvil C2P. Credit cards (tdc) are paid with one
 * `pay`; debit cards (tdd) ask `getauth` first (session otp_requested) and are paid with `pay` carrying the card, its
 * CVV and the buyer's code together once the buyer gives it (OtpConfirmation). `search` by our invoice is the only
 * card status read. The bank publishes no card refund or void: the capabilities say so and the refund flow answers
 * 409 before reaching here. A C2P charge (a C2pPayment) is a `compra`, read back, voided (`anulacion`) and refunded
 * (`vuelto`) through pago-movil-gateway.ts, with the two phones the request's `pagoMovil` names.
 */
import { SERVICE_CODES } from '../../domain/decline-codes.ts';
import { bankRequest, type BankReply } from '../../gateways/bank-http.ts';
import {
  cardOf,
  GatewayUnavailableError,
  type BankAccount,
  type ChargeReference,
  type GatewayOutcome,
  type PagoMovilParties,
  type PayerClient,
  type PaymentGateway,
  type RefundOutcome,
  type RefundRequest,
} from '../../gateways/payment-gateway.ts';
import type { GatewayUrls } from '../connector.ts';
import { credentialSetFor, type MercantilCredentialSet } from './credentials.ts';
import { getauthOutcome, MERCANTIL_CODES, payOutcome, REASONS, searchOutcome } from './outcomes.ts';
import { bolivares, getauthBody, invoiceNumber, paymentMethod, payBody, searchBody, type PayInput } from './requests.ts';
import { mercantilPagoMovil, type C2pRefund } from './pago-movil-gateway.ts';
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

  /** The pago móvil operations with this account's credentials, between the request's parties. */
  const pagoMovil = (account: BankAccount, credentials: MercantilCredentialSet, client: PayerClient, payeePhone: string) =>
    mercantilPagoMovil((path, body, retries) => post(account, credentials, path, body, retries), { credentials, client, merchantPhone: payeePhone });

  /** A C2P refund as the pago móvil operations take it: the refund's own invoice, on the day it was first sent. */
  const c2pRefund = (request: RefundRequest, parties: PagoMovilParties): C2pRefund => ({
    refundReference: request.refundReference,
    amountMinor: request.amountMinor,
    payer: parties.payer,
    sentAt: request.refundedAt ? new Date(request.refundedAt) : new Date(),
  });

  /** A C2P refund's or void's answer (or record) as a refund outcome. */
  const refundOutcome = (outcome: GatewayOutcome): RefundOutcome => {
    switch (outcome.kind) {
      case 'approved':
        return { kind: 'succeeded', processorReference: outcome.processorReference };
      case 'otp_required':
        return { kind: 'failed', code: MERCANTIL_CODES.GATEWAY_ERROR, detail: 'Mercantil asked a code for a C2P refund.' };
      case 'unknown':
        return outcome;
      default:
        return { kind: 'failed', code: outcome.code, detail: outcome.detail };
    }
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
      if ('type' in request.payment) {
        if (!request.pagoMovil) return failed(MERCANTIL_CODES.GATEWAY_ERROR, "A C2P debit needs the merchant's affiliated phone (origin_mobile_number).");
        const { payer, key } = request.payment;
        const c2p = { transactionReference: request.transactionReference, amountMinor: request.amountMinor, payer, chargedAt: new Date() };
        return pagoMovil(account, credentials, request.client, request.pagoMovil.payeePhone).purchase(c2p, key);
      }
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
      const card = cardOf(charge.payment);
      if (!card) return failed(MERCANTIL_CODES.GATEWAY_ERROR, 'Only a debit card charge is confirmed with a code.');
      return pay(account, credentials, reference, {
        transactionReference: reference.transactionReference,
        amountMinor: charge.amountMinor,
        payment: card,
        client: charge.client!,
        debit: { code, accountType },
      });
    },
    async chargeStatus(reference, account) {
      const credentials = credentialSetFor(account);
      if ('problem' in credentials) throw new GatewayUnavailableError(credentials.problem);
      const parties = reference.pagoMovil;
      if (!parties) return record(account, credentials, reference, SERVICE_CLIENT);
      const chargedAt = reference.chargedAt ? new Date(reference.chargedAt) : new Date();
      const { payer, amountMinor } = parties;
      return pagoMovil(account, credentials, SERVICE_CLIENT, parties.payeePhone).purchaseStatus({ transactionReference: reference.transactionReference, amountMinor, payer, chargedAt });
    },
    // A card refund is never reached: the mercantil gateway declares no card refunds, so it is refused with 409 first.
    async refund(request, account) {
      const credentials = credentialSetFor(account);
      if (!request.pagoMovil) return { kind: 'failed', code: 'refund_unsupported', detail: 'Banco Mercantil publishes no refund of a card payment.' };
      if ('problem' in credentials) return { kind: 'failed', code: MERCANTIL_CODES.CREDENTIALS_INVALID, detail: credentials.problem };
      const outcome = await pagoMovil(account, credentials, SERVICE_CLIENT, request.pagoMovil.payeePhone).payChange(c2pRefund(request, request.pagoMovil));
      return refundOutcome(outcome);
    },
    /** Only a C2P compra of the same Caracas day, whole, by its bank reference (anulacion); cards have no void. */
    async voidCharge(request, account) {
      const credentials = credentialSetFor(account);
      if (!request.pagoMovil || !request.processorReference) return { kind: 'not_voidable' };
      if ('problem' in credentials) return { kind: 'failed', code: MERCANTIL_CODES.CREDENTIALS_INVALID, detail: credentials.problem };
      const operations = pagoMovil(account, credentials, SERVICE_CLIENT, request.pagoMovil.payeePhone);
      return refundOutcome(await operations.voidPurchase(c2pRefund(request, request.pagoMovil), request.processorReference));
    },
    async refundStatus(request, account) {
      if (!request.pagoMovil) return { kind: 'not_found' };
      const credentials = credentialSetFor(account);
      if ('problem' in credentials) throw new GatewayUnavailableError(credentials.problem);
      const record = await pagoMovil(account, credentials, SERVICE_CLIENT, request.pagoMovil.payeePhone).refundStatus(c2pRefund(request, request.pagoMovil));
      return record.kind === 'not_found' ? record : refundOutcome(record);
    },
    pagoMovil: {
      async sendKey(payer, account, client) {
        const credentials = credentialSetFor(account);
        if ('problem' in credentials) return { kind: 'failed', code: MERCANTIL_CODES.CREDENTIALS_INVALID, detail: credentials.problem };
        // The key request names no merchant phone (scp carries the buyer's only).
        return pagoMovil(account, credentials, client, '').sendKey(payer);
      },
      async findIncoming(query, payeePhone, account) {
        const credentials = credentialSetFor(account);
        if ('problem' in credentials) return { kind: 'failed', code: MERCANTIL_CODES.CREDENTIALS_INVALID, detail: credentials.problem };
        return pagoMovil(account, credentials, SERVICE_CLIENT, payeePhone).findIncoming(query);
      },
    },
  };
}
