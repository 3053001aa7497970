/**
 * Banco Mercantil's pago móvil API on the wire (../shared/reference/pago-movil.md §1: the bank's
 * apimercantil/api-playground c2p/, scp/ and search-c2p/ modules and their sandbox screenshots). Same host, header,
 * merchant_identify and field encryption as the card API (wire.ts). The bank's own spellings are kept
 * (procesing_date in the SCP answer, transaction_scpInfo, transactionScpInfoResponse).
 */
import type { ClientIdentify, MerchantIdentify } from './wire.ts';

/**
 * compra: the merchant debits the buyer with the key the buyer's bank sent (payment_method c2p). anulacion: a compra
 * voided by its reference, no key. vuelto: money paid OUT to a phone (payment_method p2p), no key. In a compra the
 * "destination" fields are the buyer being debited and "origin" the merchant: the bank keeps the names of vuelto.
 */
export type C2pType = 'compra' | 'anulacion' | 'vuelto';

export interface C2pTransaction {
  /** Bolívares with two decimals, as a string (the card API's form; the bank's sample sends "5"). */
  amount: string;
  currency: 'ves';
  /** The buyer's bank, a number (105 for Mercantil). */
  destination_bank_id: number;
  /** Encrypted: the buyer's cédula or RIF, letter and digits (V9999999). */
  destination_id: string;
  /** Encrypted: the buyer's phone, 58 and ten digits. */
  destination_mobile_number: string;
  /** Encrypted: the merchant's affiliated phone. */
  origin_mobile_number: string;
  /** Empty in a compra and a vuelto; the original payment's reference in an anulacion. */
  payment_reference: string;
  trx_type: C2pType;
  payment_method: 'c2p' | 'p2p';
  invoice_number: string;
  /** Encrypted key in a compra; empty otherwise. */
  twofactor_auth: string;
}

export interface C2pRequest {
  merchant_identify: MerchantIdentify;
  client_identify: ClientIdentify;
  transaction_c2p: C2pTransaction;
}

export interface C2pRecord {
  processing_date?: string;
  trx_status?: string;
  trx_internal_status?: string;
  trx_type?: string;
  authorization_code?: string;
  payment_method?: string;
  /** A JSON number in the bank's sandbox answer, a string in a third party's mock: either is read. */
  payment_reference?: number | string;
  invoice_number?: string;
  amount?: number | string;
  service_fee?: number;
  currency?: string;
}

export interface C2pResponse {
  merchant_identify?: MerchantIdentify;
  transaction_c2p_response?: C2pRecord;
}

export interface ScpRequest {
  merchant_identify: MerchantIdentify;
  client_identify: ClientIdentify;
  /** Both encrypted: the buyer's cédula and phone. */
  transaction_scpInfo: { destination_id: string; destination_mobile_number: string };
}

export interface ScpResponse {
  merchant_identify?: MerchantIdentify;
  transactionScpInfoResponse?: { procesing_date?: string; trx_status?: string; trx_internal_status?: string };
}

/** A search of the pago móvil payments the merchant received (P2C). */
export interface MobilePaymentSearchRequest {
  merchant_identify: MerchantIdentify;
  client_identify: ClientIdentify;
  search_by: {
    amount: string;
    currency: 'ves';
    /** Encrypted: the buyer's phone (the bank's names: the buyer is "destination" here too). */
    destination_mobile_number: string;
    /** Encrypted: the merchant's affiliated phone. */
    origin_mobile_number: string;
    payment_reference: string;
    /** YYYY-MM-DD. */
    trx_date: string;
    /** Encrypted, optional (the 2024 code sent it, the 2025 code does not). */
    destination_id?: string;
  };
}

export interface MobilePaymentRecord {
  trx_date?: string;
  trx_type?: string;
  authorization_code?: string;
  payment_reference?: number | string;
  invoice_number?: string;
  payment_method?: string;
  origin_mobile_number?: string;
  destination_mobile_number?: string;
  destination_id?: string;
  currency?: string;
  amount?: number | string;
  destination_bank_id?: number;
}

export interface MobilePaymentSearchResponse {
  merchant_identify?: MerchantIdentify;
  transaction_list?: MobilePaymentRecord[];
}

export const PAGO_MOVIL_PATHS = { scp: '/mobile-payment/scp', c2p: '/payment/c2p', search: '/mobile-payment/search' } as const;

/** The bank's readable codes (reference §1.5): SCP failed, and a search with no match. */
export const PAGO_MOVIL_CODES = { KEY_REQUEST_FAILED: '0300', NO_MATCH: '0330' } as const;
