/**
 * Banco de Venezuela's pago móvil API on the wire (../shared/reference/pago-movil.md §3: third-party transcriptions
 * of the bank's manuals "API C2P Cuentas Múltiples" and "API Conciliación", not the bank's own copy). JSON over POST,
 * header X-API-Key, one key per product family (C2P, conciliation). Errors come with HTTP 200 and are told by `code`:
 * only "1000" (C2P, a string) or 1000 (getMovement, a number) is success. The bank's spellings are kept.
 */

/** The payer as C2P names them: cédula letter and digits (V15404774), phone in local form (04123963208). */
export interface C2pCustomer {
  customerDocumentId: string;
  customerNumberInstrument: string;
}

/** Ask the payer's bank to send them a payment key by SMS. */
export type PaymentKeyRequest = C2pCustomer;

/** A C2P debit: the merchant debits the payer with the key their bank sent them. */
export interface ProcessRequest extends C2pCustomer {
  /**
   * Bolívares with a dot, at least one decimal, as integrators send it ("2.0"). The sources show no amount with
   * céntimos: we send two decimals only when there are céntimos ("2.5", "12.35") (docs/bdv.md).
   */
  amount: string;
  /** The payer's bank, 4 characters ("0102"). */
  customerBankCode: string;
  /** Without accents, at most 100 characters. */
  concept: string;
  /** The payment key the payer received. */
  otp: string;
  coinType: 'VES';
  /** "CELE" in every source; its meaning and other values are unsaid. */
  operationType: 'CELE';
  /** The merchant's affiliated phone, local form: it selects the account credited. */
  commerceNumberInstrument: string;
}

/** A C2P debit reversed whole by its endToEndId; referenceOrigin is required when the payer's bank is not BDV. */
export interface AnnulmentRequest {
  endToEndId: string;
  referenceOrigin: string;
}

/** The answer's data of process and annulment (the account fields come empty in every sample). */
export interface C2pData {
  /** YYYY-MM-DD. */
  date?: string;
  /** 58 characters in the sample; its last 12 are the referencia. Empty in an annulment answer. */
  endToEndId?: string;
  cuenta?: string;
  saldoDisponible?: string;
  cuentaDivisa?: string;
  saldoCuentaDivisa?: string;
  /** The reference the payer's statement shows (12 digits); null in an annulment answer. */
  referencia?: string | null;
}

/** Every C2P answer: HTTP 200 whatever the code; `status` repeats the HTTP status. */
export interface C2pResponse {
  code?: string;
  message?: string;
  data?: C2pData | null;
  status?: number;
}

/** Verify a P2C payment the merchant received (conciliation). */
export interface GetMovementRequest {
  /** The payer's cédula (V27037606); compared only when reqCed is true. */
  cedulaPagador: string;
  telefonoPagador: string;
  /** The merchant's affiliated phone. */
  telefonoDestino: string;
  referencia: string;
  /** YYYY-MM-DD. */
  fechaPago: string;
  /** Bolívares with two decimals ("120.00"). */
  importe: string;
  /** The payer's bank, 4 characters. */
  bancoOrigen: string;
  /** True only BDV to BDV: an interbank payment carries the merchant's RIF instead of the payer's cédula. */
  reqCed: boolean;
}

export interface GetMovementResponse {
  /** A number here (a string in C2P answers): 1000 found, 1010 everything else. */
  code?: number | string;
  /** Tells the 1010 cases apart; carries the real amount when it differs. */
  message?: string;
  data?: { status?: string; amount?: string; reason?: string; referencia?: string } | null;
  status?: number;
}

export const BDV_PATHS = {
  paymentKey: '/BankMobilePaymentC2P/MultipleAccounts/paymentkey',
  process: '/BankMobilePaymentC2P/MultipleAccounts/process',
  annulment: '/BankMobilePaymentC2P/MultipleAccounts/annulment',
  getMovement: '/getMovement/v2',
} as const;

/** The header of the API key; each path takes its family's key. */
export const API_KEY_HEADER = 'X-API-Key';

/** The C2P error table (reference §3), code -> the transcription's meaning. */
export const C2P_CODES = {
  '1000': 'realizada',
  '1002': 'error envío conector',
  '1006': 'el RIF no es merchant',
  '1013': 'monto inválido',
  '1014': 'beneficiario no afiliado a PagomóvilBDV',
  '1015': 'no afiliado a ClavemóvilBDV',
  '1026': 'referencia/monto duplicado',
  '1034': 'saldo insuficiente',
  '1041': 'servicio inactivo',
  '1050': 'timeout',
  '1055': 'clave no existe',
  '1056': 'el teléfono no corresponde con el titular',
  '1061': 'monto supera el límite diario',
  '1062': 'cuenta con inconvenientes',
  '1065': 'cantidad de transacciones superada',
  '1080': 'documento inválido',
  '1091': 'banco destino inactivo',
  '1092': 'banco destino no afiliado',
  '1094': 'operación duplicada',
} as const;

export type C2pCode = keyof typeof C2P_CODES;

/** getMovement's codes: success, and the one code of every other outcome (told apart by message). */
export const MOVEMENT_CODES = { FOUND: 1000, NOT_CONCILIATED: 1010 } as const;
