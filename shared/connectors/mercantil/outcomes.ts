/**
 * Mercantil's answers as the port's outcomes. Our errorCode is the bank's own code; declineReason is the Spanish text
 * of this table. The bank's error catalogue is only in PDFs nobody could read (Errores_con_TDD.pdf, ...), so no code
 * has a known meaning: every error_list answer is a decline with the generic text, except where the HTTP status says
 * the merchant's configuration was refused (401, 403: failed). Gateway errors of IBM API Connect (httpCode) failed.
 */
import type { OtpFactor } from '../../domain/otp-factor.ts';
import type { CardFunding } from '../../domain/payment-data.ts';
import type { BankReply } from '../../gateways/bank-http.ts';
import type { GatewayOutcome } from '../../gateways/payment-gateway.ts';
import { decryptField } from './field-cipher.ts';
import type { ErrorList, GetauthResponse, PayResponse, SearchResponse, TransactionRecord } from './wire.ts';

/** Codes the connector assigns where the bank's answer has none of its own. */
export const MERCANTIL_CODES = {
  /** trx_status "rejected" without trx_internal_status. */
  REJECTED: 'mercantil_rejected',
  /** An IBM API Connect gateway error (httpCode), a non-JSON answer, or a shape the bank never documented. */
  GATEWAY_ERROR: 'mercantil_gateway_error',
  /** The merchant's credentials do not parse: fix them with `credentials load`. */
  CREDENTIALS_INVALID: 'mercantil_credentials_invalid',
} as const;

/** The buyer-facing Spanish text per kind of answer (the bank's codes have no public meaning, see above). */
export const REASONS = {
  declined: 'Tu banco rechazó el pago. Revisa los datos o prueba con otra tarjeta; si se repite, comunícate con Mercantil.',
  failed: 'No pudimos procesar el pago con el banco en este momento. Inténtalo de nuevo en unos minutos.',
} as const;

const reject = (kind: 'declined' | 'failed', code: string, detail: string): GatewayOutcome => ({ kind, code, detail, reason: REASONS[kind] });

const errorListOf = (body: Record<string, unknown>): ErrorList['error_list'] | null => {
  const list = body.error_list;
  return Array.isArray(list) && list.length > 0 ? (list as ErrorList['error_list']) : null;
};

/** An error_list, an IBM gateway error, or null when the answer is neither. */
export function errorOutcome(reply: BankReply): GatewayOutcome | null {
  const errors = errorListOf(reply.body);
  if (errors) {
    const [first] = errors;
    const detail = errors.map((e) => `${e.error_code}: ${e.description}`).join('; ');
    return reject(reply.status === 401 || reply.status === 403 ? 'failed' : 'declined', String(first!.error_code), `Mercantil (HTTP ${reply.status}): ${detail}`);
  }
  const httpCode = reply.body.httpCode ?? reply.body.http_code;
  if (httpCode !== undefined || reply.status >= 300) {
    const message = String(reply.body.moreInformation ?? reply.body.httpMessage ?? '');
    return reject('failed', MERCANTIL_CODES.GATEWAY_ERROR, `Mercantil's API gateway answered HTTP ${reply.status}${httpCode === undefined ? '' : ` (httpCode ${String(httpCode)})`}${message ? `: ${message}` : ''}.`);
  }
  return null;
}

/** How the bank recorded the approved charge: as a debit card's (tdd) or a credit card's (tdc). The bank names no issuer. */
const RECORD_FUNDING: Record<string, CardFunding> = { tdd: 'debit', tdc: 'credit' };

/** A transaction record (pay's transaction_response, or one of search's transaction_list) as an outcome. */
export function recordOutcome(record: TransactionRecord): GatewayOutcome {
  if (record.trx_status === 'approved') {
    const funding = RECORD_FUNDING[record.payment_method ?? ''];
    return { kind: 'approved', processorReference: String(record.payment_reference ?? ''), ...(funding ? { funding } : {}) };
  }
  if (record.trx_status === 'rejected') {
    return reject('declined', record.trx_internal_status ?? MERCANTIL_CODES.REJECTED, `Mercantil rejected the payment (trx_internal_status ${record.trx_internal_status ?? 'none'}).`);
  }
  return { kind: 'unknown', detail: `Mercantil answered trx_status "${record.trx_status ?? ''}", which it does not document.` };
}

/**
 * The codes of a debit `pay` refused for the buyer's clave or the card's account type, not the card: the code step
 * takes another entry instead of the attempt ending. The bank has published none (its catalogue is in a PDF nobody
 * could read), so against the real bank such a refusal stays a decline until certification tells its code: one
 * line here. 9003 is the sandbox simulator's own WRONG_OTP (infra/sandbox/mercantil/mercantil-simulator.ts).
 */
export const FACTOR_REFUSAL_CODES: ReadonlySet<string> = new Set(['9003']);

export function payOutcome(reply: BankReply): GatewayOutcome {
  const error = errorOutcome(reply);
  if (error?.kind === 'declined' && FACTOR_REFUSAL_CODES.has(error.code)) return { ...error, factorRefused: true };
  if (error) return error;
  const record = (reply.body as PayResponse).transaction_response;
  return record ? recordOutcome(record) : reject('failed', MERCANTIL_CODES.GATEWAY_ERROR, 'Mercantil answered the payment without transaction_response.');
}

/** The bank's factor types whose meaning a source gives (docs/connectors.md): the clave telefónica, nothing sent. */
const FACTOR_KINDS: Record<string, OtpFactor['kind']> = { clavetelefonica: 'phone_key' };

/**
 * What getauth says the buyer must give, decrypted with the merchant's secret key: a field that does not decrypt,
 * or reads oddly, is left unknown rather than shown.
 */
export function factorOf(info: NonNullable<GetauthResponse['authentication_info']>, secretKey: string): OtpFactor {
  const read = (field: string | undefined): string | null => {
    try {
      const text = field ? decryptField(field, secretKey).trim() : '';
      return text.length > 0 && text.length <= 60 ? text : null;
    } catch {
      return null;
    }
  };
  const length = Number(read(info.twofactor_lenght));
  return {
    kind: FACTOR_KINDS[read(info.twofactor_type)?.toLowerCase() ?? ''] ?? 'other',
    bankName: 'Mercantil',
    label: read(info.twofactor_label),
    length: Number.isInteger(length) && length >= 1 && length <= 12 ? length : null,
    inputType: read(info.twofactor_field_type)?.toLowerCase() === 'numeric' ? 'numeric' : 'text',
  };
}

/** getauth approved: the bank awaits the buyer's second factor for a debit card. */
export function getauthOutcome(reply: BankReply, secretKey: string): GatewayOutcome {
  const error = errorOutcome(reply);
  if (error) return error;
  const info = (reply.body as GetauthResponse).authentication_info;
  if (info?.trx_status === 'approved') return { kind: 'otp_required', factor: factorOf(info, secretKey) };
  return reject('declined', MERCANTIL_CODES.REJECTED, `Mercantil did not authorize the second factor (trx_status "${info?.trx_status ?? ''}").`);
}

/**
 * The bank's record of our invoice, from a `unique` search: null when it has none, so the charge never reached it.
 * A record for another amount is not ours (two references sharing an invoice): the bank's answer is then unknown.
 */
export function searchOutcome(reply: BankReply, invoice: string, amount?: string): GatewayOutcome | { kind: 'not_found' } | null {
  if (errorListOf(reply.body) || reply.status >= 300 || reply.body.httpCode !== undefined) return null;
  const record = ((reply.body as SearchResponse).transaction_list ?? []).find((r) => r.invoice_number === invoice);
  if (!record) return { kind: 'not_found' };
  if (amount !== undefined && record.amount !== undefined && Number(record.amount).toFixed(2) !== Number(amount).toFixed(2)) {
    return { kind: 'unknown', detail: `Mercantil's record of invoice ${invoice} is for ${String(record.amount)}, not ${amount}.` };
  }
  return recordOutcome(record);
}
