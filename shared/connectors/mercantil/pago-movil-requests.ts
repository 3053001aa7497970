/**
 * The bodies of Mercantil's pago móvil API, field for field as the bank's samples send them (pago-movil-wire.ts).
 * Phones go as 58 and ten digits, documents as letter and digits, bank ids as numbers, and every phone, document and
 * key encrypted with the merchant's secret (reference §1.5); amounts, bank ids, references and dates never are.
 */
import { internationalPhone } from '../../domain/pago-movil.ts';
import type { PayerClient } from '../../gateways/payment-gateway.ts';
import type { IncomingPaymentQuery, PagoMovilPayer } from '../../gateways/pago-movil-port.ts';
import type { MercantilCredentialSet } from './credentials.ts';
import { encryptField } from './field-cipher.ts';
import type { C2pRequest, C2pTransaction, MobilePaymentSearchRequest, ScpRequest } from './pago-movil-wire.ts';
import { bolivares, clientIdentify, customerId, invoiceNumber, merchantIdentify } from './requests.ts';

/** The bank's id of a pago móvil bank: its code as a number (0105 -> 105), as Mercantil's samples send it. */
export const bankId = (code: string): number => Number(code);

/** Who is asking and for which merchant: the parts every pago móvil body shares. */
export interface PagoMovilContext {
  credentials: MercantilCredentialSet;
  /** The merchant's phone affiliated to pago móvil at Mercantil, national form. */
  merchantPhone: string;
  client: PayerClient;
}

const sealed = (credentials: MercantilCredentialSet, text: string) => encryptField(text, credentials.secretKey);

function c2p(context: PagoMovilContext, transaction: Omit<C2pTransaction, 'currency' | 'origin_mobile_number'>): C2pRequest {
  return {
    merchant_identify: merchantIdentify(context.credentials),
    client_identify: clientIdentify(context.client),
    transaction_c2p: { ...transaction, currency: 'ves', origin_mobile_number: sealed(context.credentials, internationalPhone(context.merchantPhone)) },
  };
}

const payerFields = (credentials: MercantilCredentialSet, payer: PagoMovilPayer) => ({
  destination_bank_id: bankId(payer.bankCode),
  destination_id: sealed(credentials, customerId(payer.document)),
  destination_mobile_number: sealed(credentials, internationalPhone(payer.phone)),
});

/** A C2P purchase: the buyer's account is debited with the key their bank sent them; our invoice deduplicates it. */
export function c2pPurchaseBody(context: PagoMovilContext, input: { transactionReference: string; amountMinor: number; payer: PagoMovilPayer; key: string }): C2pRequest {
  return c2p(context, {
    amount: bolivares(input.amountMinor),
    ...payerFields(context.credentials, input.payer),
    payment_reference: '',
    trx_type: 'compra',
    payment_method: 'c2p',
    invoice_number: invoiceNumber(input.transactionReference),
    twofactor_auth: sealed(context.credentials, input.key),
  });
}

/**
 * A C2P purchase voided whole by its bank reference (anulacion): no key. The bank's samples show no anulacion body
 * beyond the fields' comments: the buyer's fields and amount are the purchase's, the invoice is the refund's.
 */
export function c2pVoidBody(context: PagoMovilContext, input: { refundReference: string; amountMinor: number; payer: PagoMovilPayer; paymentReference: string }): C2pRequest {
  return c2p(context, {
    amount: bolivares(input.amountMinor),
    ...payerFields(context.credentials, input.payer),
    payment_reference: input.paymentReference,
    trx_type: 'anulacion',
    payment_method: 'c2p',
    invoice_number: invoiceNumber(input.refundReference),
    twofactor_auth: '',
  });
}

/** Money paid out to the buyer's phone (vuelto, payment_method p2p): how a C2P payment is refunded after its day. */
export function c2pChangeBody(context: PagoMovilContext, input: { refundReference: string; amountMinor: number; payer: PagoMovilPayer }): C2pRequest {
  return c2p(context, {
    amount: bolivares(input.amountMinor),
    ...payerFields(context.credentials, input.payer),
    payment_reference: '',
    trx_type: 'vuelto',
    payment_method: 'p2p',
    invoice_number: invoiceNumber(input.refundReference),
    twofactor_auth: '',
  });
}

/** Asks the buyer's bank to send them a payment key (SCP): both fields encrypted, as the bank's 2024 screenshot shows. */
export function scpBody(context: Omit<PagoMovilContext, 'merchantPhone'>, payer: PagoMovilPayer): ScpRequest {
  return {
    merchant_identify: merchantIdentify(context.credentials),
    client_identify: clientIdentify(context.client),
    transaction_scpInfo: {
      destination_id: sealed(context.credentials, customerId(payer.document)),
      destination_mobile_number: sealed(context.credentials, internationalPhone(payer.phone)),
    },
  };
}

/** A search of the merchant's received pago móvil payments by the buyer's reference, phone, day and the amount asked. */
export function mobilePaymentSearchBody(context: PagoMovilContext, query: IncomingPaymentQuery): MobilePaymentSearchRequest {
  const { credentials } = context;
  return {
    merchant_identify: merchantIdentify(credentials),
    client_identify: clientIdentify(context.client),
    search_by: {
      amount: bolivares(query.amountMinor),
      currency: 'ves',
      destination_mobile_number: sealed(credentials, internationalPhone(query.payer.phone)),
      origin_mobile_number: sealed(credentials, internationalPhone(context.merchantPhone)),
      payment_reference: query.reference,
      trx_date: query.paidOn,
      ...(query.payer.document ? { destination_id: sealed(credentials, customerId(query.payer.document)) } : {}),
    },
  };
}
