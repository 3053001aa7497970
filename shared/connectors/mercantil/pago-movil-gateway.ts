/**
 * Mercantil's pago móvil operations behind the port: the C2P compra (a charge), its status read, its void
 * (anulacion) and refund (vuelto), the key request (SCP) and the search of received P2C payments. Every money-moving
 * call is sent once (sent-once.ts); the status read of a compra is a search of the day's C2P operations of the buyer's
 * phone by our invoice (the bank's answer to a search without a reference is not published: docs/pago-movil.md).
 */
import { caracasDay } from '../../domain/pago-movil.ts';
import type { BankReply } from '../../gateways/bank-http.ts';
import type { IncomingPaymentOutcome, IncomingPaymentQuery, PagoMovilPayer, PaymentKeyOutcome } from '../../gateways/pago-movil-port.ts';
import { GatewayUnavailableError, type GatewayOutcome } from '../../gateways/payment-gateway.ts';
import { recordOutcome } from './outcomes.ts';
import { c2pOutcome, incomingPaymentOutcome, scpOutcome } from './pago-movil-outcomes.ts';
import { c2pChangeBody, c2pPurchaseBody, c2pVoidBody, mobilePaymentSearchBody, scpBody, type PagoMovilContext } from './pago-movil-requests.ts';
import { PAGO_MOVIL_CODES, PAGO_MOVIL_PATHS, type MobilePaymentSearchResponse } from './pago-movil-wire.ts';
import { invoiceNumber } from './requests.ts';
import { sentOnce, type BankRecord } from './sent-once.ts';

/** One call to the bank for one merchant and buyer; `retries` only for reads. */
export type MercantilPost = (path: string, body: unknown, retries?: number) => Promise<BankReply>;

/** Status reads are repeated this many times on a network error or a 5xx. */
const SEARCH_RETRIES = 2;


export interface C2pCharge {
  transactionReference: string;
  amountMinor: number;
  payer: PagoMovilPayer;
  /** When the compra was sent: its status is searched on that Caracas day. */
  chargedAt: Date;
}

export interface C2pRefund {
  refundReference: string;
  amountMinor: number;
  payer: PagoMovilPayer;
  /** When the refund was first sent: its record is searched on that Caracas day. */
  sentAt: Date;
}

export function mercantilPagoMovil(post: MercantilPost, context: PagoMovilContext) {
  /**
   * The bank's record of one of our C2P operations (compra, anulacion, vuelto) by its invoice, among the day's
   * operations with the buyer's phone; throws GatewayUnavailableError when the bank cannot say.
   */
  const operationRecord = async (operation: { reference: string; amountMinor: number; payer: PagoMovilPayer; at: Date }): Promise<BankRecord> => {
    const query: IncomingPaymentQuery = { reference: '', payer: operation.payer, paidOn: caracasDay(operation.at), amountMinor: operation.amountMinor };
    const reply = await post(PAGO_MOVIL_PATHS.search, mobilePaymentSearchBody(context, query), SEARCH_RETRIES);
    const errors = reply.body.error_list as { error_code?: string }[] | undefined;
    if (errors?.[0]?.error_code === PAGO_MOVIL_CODES.NO_MATCH) return { kind: 'not_found' };
    if (reply.status >= 300 || errors) throw new GatewayUnavailableError(`Mercantil's mobile-payment search did not answer with a list (HTTP ${reply.status}).`);
    const invoice = invoiceNumber(operation.reference);
    const record = ((reply.body as MobilePaymentSearchResponse).transaction_list ?? []).find((r) => r.invoice_number === invoice);
    return record ? recordOutcome(record) : { kind: 'not_found' };
  };

  const purchaseRecord = (charge: C2pCharge) => operationRecord({ reference: charge.transactionReference, amountMinor: charge.amountMinor, payer: charge.payer, at: charge.chargedAt });
  const refundRecord = (refund: C2pRefund) => operationRecord({ reference: refund.refundReference, amountMinor: refund.amountMinor, payer: refund.payer, at: refund.sentAt });

  return {
    purchase: (charge: C2pCharge, key: string): Promise<GatewayOutcome> =>
      sentOnce(() => post(PAGO_MOVIL_PATHS.c2p, c2pPurchaseBody(context, { ...charge, key })), c2pOutcome, () => purchaseRecord(charge)),
    purchaseStatus: purchaseRecord,
    /** A compra voided whole the same day (anulacion), by the compra's bank reference. */
    voidPurchase: (refund: C2pRefund, paymentReference: string): Promise<GatewayOutcome> =>
      sentOnce(() => post(PAGO_MOVIL_PATHS.c2p, c2pVoidBody(context, { ...refund, paymentReference })), c2pOutcome, () => refundRecord(refund)),
    /** Money paid back to the buyer's phone (vuelto): a refund after the compra's day, partial amounts too. */
    payChange: (refund: C2pRefund): Promise<GatewayOutcome> => sentOnce(() => post(PAGO_MOVIL_PATHS.c2p, c2pChangeBody(context, refund)), c2pOutcome, () => refundRecord(refund)),
    refundStatus: refundRecord,
    sendKey: async (payer: PagoMovilPayer): Promise<PaymentKeyOutcome> => scpOutcome(await post(PAGO_MOVIL_PATHS.scp, scpBody(context, payer))),
    findIncoming: async (query: IncomingPaymentQuery): Promise<IncomingPaymentOutcome> =>
      incomingPaymentOutcome(await post(PAGO_MOVIL_PATHS.search, mobilePaymentSearchBody(context, query), SEARCH_RETRIES), query.reference),
  };
}
