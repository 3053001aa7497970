/**
 * Banco Mercantil's card payment API on the wire (sources in docs/connectors.md#banco-mercantil: the bank's
 * apimercantil/api-playground getauth/, tdd/, tdc/, td-search/ modules and their sandbox screenshots). Keys inside
 * merchant_identify are camelCase, the rest snake_case; the bank's own spellings (procesing_date, twofactor_lenght)
 * are kept.
 */

export interface MerchantIdentify {
  integratorId: number;
  merchantId: number;
  terminalId: string;
}

/** The buyer's browser; the bank's samples also send a `mobile` block, which a web checkout has not. */
export interface ClientIdentify {
  ipaddress: string;
  browser_agent: string;
}

export type PaymentMethod = 'tdd' | 'tdc';
/** CC cuenta corriente, CA cuenta de ahorros: the debit card's account. */
export type AccountType = 'CC' | 'CA';

export interface GetauthRequest {
  merchant_identify: MerchantIdentify;
  client_identify: ClientIdentify;
  transaction_authInfo: { trx_type: 'solaut'; payment_method: 'tdd'; customer_id: string; card_number: string };
}

export interface PayTransaction {
  trx_type: 'compra';
  payment_method: PaymentMethod;
  card_number: string;
  customer_id: string;
  /** Debit only. */
  account_type?: AccountType;
  invoice_number: string;
  /** Debit only; encrypted. */
  twofactor_auth?: string;
  /** YYYY/MM, plain as in the bank's 2025 samples. */
  expiration_date: string;
  /** Encrypted. */
  cvv: string;
  currency: 'ves';
  /** Bolívares with two decimals, as a string. */
  amount: string;
}

export interface PayRequest {
  merchant_identify: MerchantIdentify;
  client_identify: ClientIdentify;
  transaction: PayTransaction;
}

export interface SearchRequest {
  merchant_identify: MerchantIdentify;
  client_identify: ClientIdentify;
  search_by: { search_criteria: 'unique'; procesing_date: string; invoice_number: string; payment_reference: string };
}

export interface TransactionRecord {
  processing_date?: string;
  trx_status?: string;
  payment_reference?: string | number;
  trx_internal_status?: string;
  trx_type?: string;
  payment_method?: string;
  invoice_number?: string;
  amount?: number | string;
  currency?: string;
}

/** Business errors (snake APIs): 4-digit zero-padded codes. */
export interface ErrorList {
  error_list: { error_code: string; description: string }[];
}

export interface PayResponse {
  merchant_identify?: MerchantIdentify;
  transaction_response?: TransactionRecord;
}

export interface GetauthResponse {
  merchant_identify?: MerchantIdentify;
  authentication_info?: {
    processing_date?: string;
    trx_status?: string;
    trx_type?: string;
    payment_method?: string;
    twofactor_type?: string;
    twofactor_label?: string;
    twofactor_field_type?: string;
    twofactor_lenght?: string;
  };
}

export interface SearchResponse {
  merchant_identify?: MerchantIdentify;
  transaction_list?: (TransactionRecord & { card_number?: string; customer_id?: string })[];
}

export const PATHS = { getauth: '/payment/getauth', pay: '/payment/pay', search: '/payment/search' } as const;
