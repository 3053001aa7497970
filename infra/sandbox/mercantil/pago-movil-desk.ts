/**
 * The pago móvil side of the Mercantil simulator: `mobile-payment/scp` (send the buyer a key), `payment/c2p` (compra,
 * anulacion, vuelto) and `mobile-payment/search` (the P2C payments the merchant received), on the bank's bodies and
 * field encryption (../shared/reference/pago-movil.md §1). The bank's sandbox is a canned responder that documents
 * no rule; every rule below that the reference does not state is this simulator's own, and its codes (SIMULATOR_PM_CODES)
 * are ours, never the bank's. The bank's two readable codes are used where it uses them: 0300 (the key could not be
 * requested) and 0330 (no payment matches a search).
 */
import { randomInt } from 'node:crypto';
import type { Clock } from '../../../shared/clock.ts';
import { centimos } from '../../../shared/connectors/mercantil/pago-movil-outcomes.ts';
import { PAGO_MOVIL_CODES } from '../../../shared/connectors/mercantil/pago-movil-wire.ts';
import { VENEZUELAN_BANKS } from '../../../shared/domain/pago-movil.ts';

/** The bank's sandbox data (reference §1.5): payer cédula, phone and key, and its bank. */
export const PAGO_MOVIL_TEST_DATA = { key: '00001111', phone: '584141234567', document: 'V9999999', bankId: 105 } as const;

/**
 * The simulator's own test payers (phones, international form): each brings one outcome, as the test cards do. Any
 * other well-formed payer is approved with the sandbox key.
 */
export const PAGO_MOVIL_TEST_PAYERS = {
  /** C2P compra rejected: not enough money in the buyer's account. */
  insufficientFunds: '584140000002',
  /** SCP refused with the bank's 0300. */
  keyRefused: '584140000300',
} as const;

/** The simulator's own codes (the bank's catalogue is in PDFs nobody could read). */
export const SIMULATOR_PM_CODES = {
  INSUFFICIENT_FUNDS: '9102',
  WRONG_KEY: '9103',
  BANK_UNKNOWN: '9104',
  NOT_VOIDABLE: '9105',
  FORMAT: '9106',
  DUPLICATE_INVOICE: '9004',
} as const;

/** A pago móvil a buyer sent to the merchant's affiliated phone (P2C), as the ledger keeps it. */
export interface IncomingPagoMovil {
  reference: string;
  /** International form, 58 and ten digits. */
  payerPhone: string;
  payerBankId: number;
  payerDocument: string | null;
  amountMinor: number;
  /** YYYY-MM-DD, Caracas time. */
  date: string;
  authorizationCode: string;
}

export interface C2pPayment {
  invoice: string;
  type: 'compra' | 'anulacion' | 'vuelto';
  reference: string;
  amountMinor: number;
  payerPhone: string;
  payerBankId: number;
  date: string;
  /** A compra voided by an anulacion. */
  voided: boolean;
}

type Reply = { status: number; body: Record<string, unknown> };

const errorList = (status: number, code: string, description: string): Reply => ({ status, body: { error_list: [{ error_code: code, description }] } });
const digits = (length: number) => Array.from({ length }, () => randomInt(10)).join('');
const formatError = () => errorList(400, SIMULATOR_PM_CODES.FORMAT, 'Formato de la solicitud inválido');
const bolivaresNumber = (minor: number) => minor / 100;
const knownBank = (id: unknown) => typeof id === 'number' && Object.hasOwn(VENEZUELAN_BANKS, String(id).padStart(4, '0'));
const sameReference = (a: string, b: unknown) => a.replace(/^0+/, '') === String(b ?? '').replace(/^0+/, '');

export interface PagoMovilDeskOptions {
  clock: Clock;
  merchantIdentify: Record<string, unknown>;
  /** Decrypts a field with the merchant's secret; null when it is not one of ours. */
  decrypt(value: unknown): string | null;
  encrypt(text: string): string;
  /** The bank's "2024-07-08 11:04:42 VET". */
  vet(): string;
}

export function pagoMovilDesk({ clock, merchantIdentify, decrypt, encrypt, vet }: PagoMovilDeskOptions) {
  const incoming: IncomingPagoMovil[] = [];
  const c2pPayments = new Map<string, C2pPayment>();
  const caracasDay = () => new Date(clock.now() - 4 * 3_600_000).toISOString().slice(0, 10);
  const payer = (t: Record<string, unknown>) => ({ phone: decrypt(t.destination_mobile_number), document: decrypt(t.destination_id) });

  const scp = (body: Record<string, unknown>): Reply => {
    const info = body.transaction_scpInfo as Record<string, unknown> | undefined;
    const phone = decrypt(info?.destination_mobile_number);
    const document = decrypt(info?.destination_id);
    if (!phone || !/^58\d{10}$/.test(phone) || !document || !/^[VEJGP][A-Z0-9]{5,12}$/.test(document)) return formatError();
    if (phone === PAGO_MOVIL_TEST_PAYERS.keyRefused) {
      return { status: 400, body: { processing_date: vet(), merchant_identify: merchantIdentify, error_list: [{ error_code: PAGO_MOVIL_CODES.KEY_REQUEST_FAILED, description: 'Error solicitando clave temporal de pago c2p' }] } };
    }
    return {
      status: 200,
      body: { merchant_identify: merchantIdentify, transactionScpInfoResponse: { procesing_date: vet(), trx_status: 'La solicitud de la clave temporal de pago fue procesada', trx_internal_status: '0000' } },
    };
  };

  const c2pRecord = (p: C2pPayment) => ({
    processing_date: vet(),
    trx_status: 'approved',
    trx_internal_status: '0000',
    trx_type: p.type,
    authorization_code: p.reference.slice(-6),
    payment_method: p.type === 'vuelto' ? 'p2p' : 'c2p',
    payment_reference: Number(p.reference),
    invoice_number: p.invoice,
    amount: bolivaresNumber(p.amountMinor),
    service_fee: 0,
    currency: 'ves',
  });

  const c2p = (body: Record<string, unknown>): Reply => {
    const t = body.transaction_c2p as Record<string, unknown> | undefined;
    const amountMinor = centimos(t?.amount as string | undefined);
    if (!t || typeof t.invoice_number !== 'string' || !/^\d+$/.test(t.invoice_number) || !amountMinor || t.currency !== 'ves') return formatError();
    const type = t.trx_type;
    if ((type !== 'compra' && type !== 'anulacion' && type !== 'vuelto') || t.payment_method !== (type === 'vuelto' ? 'p2p' : 'c2p')) return formatError();
    const { phone, document } = payer(t);
    if (!phone || !/^58\d{10}$/.test(phone) || !document || !decrypt(t.origin_mobile_number)) return formatError();
    if (!knownBank(t.destination_bank_id)) return errorList(400, SIMULATOR_PM_CODES.BANK_UNKNOWN, 'Banco emisor no autorizado');
    if (c2pPayments.has(t.invoice_number)) return errorList(409, SIMULATOR_PM_CODES.DUPLICATE_INVOICE, 'Número de factura duplicado');
    const payment: C2pPayment = { invoice: t.invoice_number, type, reference: digits(10), amountMinor, payerPhone: phone, payerBankId: t.destination_bank_id as number, date: caracasDay(), voided: false };

    if (type === 'compra') {
      if (decrypt(t.twofactor_auth) !== PAGO_MOVIL_TEST_DATA.key) return errorList(402, SIMULATOR_PM_CODES.WRONG_KEY, 'Clave de pago inválida o vencida');
      if (phone === PAGO_MOVIL_TEST_PAYERS.insufficientFunds) return errorList(402, SIMULATOR_PM_CODES.INSUFFICIENT_FUNDS, 'Saldo insuficiente');
    }
    if (type === 'anulacion') {
      // Our rule: a compra of the same Caracas day, whole, once (the bank does not publish its window).
      const original = [...c2pPayments.values()].find((p) => p.type === 'compra' && sameReference(p.reference, t.payment_reference));
      if (!original || original.voided || original.date !== payment.date || original.amountMinor !== amountMinor || original.payerPhone !== phone) {
        return errorList(409, SIMULATOR_PM_CODES.NOT_VOIDABLE, 'La operación no puede ser anulada');
      }
      original.voided = true;
    }
    c2pPayments.set(payment.invoice, payment);
    return { status: 200, body: { merchant_identify: merchantIdentify, transaction_c2p_response: c2pRecord(payment) } };
  };

  const search = (body: Record<string, unknown>): Reply => {
    const by = body.search_by as Record<string, unknown> | undefined;
    const buyerPhone = decrypt(by?.destination_mobile_number);
    if (!by || !buyerPhone || !decrypt(by.origin_mobile_number) || typeof by.trx_date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(by.trx_date) || typeof by.payment_reference !== 'string') {
      return formatError();
    }
    // Our rule: the amount sent is not a filter, so a payment of another amount is found and told apart by its amount
    // (the reference does not say whether the bank filters on it). With no reference, the day's C2P operations with
    // that phone are listed with their invoices: how an operation whose answer was lost is found.
    const list = by.payment_reference
      ? incoming
          .filter((p) => sameReference(p.reference, by.payment_reference) && p.payerPhone === buyerPhone && p.date === by.trx_date)
          .map((p) => ({
            trx_date: p.date,
            trx_type: 'compra',
            authorization_code: p.authorizationCode,
            payment_reference: Number(p.reference),
            invoice_number: '',
            payment_method: 'p2c',
            origin_mobile_number: encrypt(p.payerPhone),
            destination_mobile_number: by.origin_mobile_number,
            destination_id: p.payerDocument ? encrypt(p.payerDocument) : '',
            currency: 'ves',
            amount: bolivaresNumber(p.amountMinor),
            destination_bank_id: p.payerBankId,
          }))
      : [...c2pPayments.values()].filter((p) => p.payerPhone === buyerPhone && p.date === by.trx_date).map((p) => ({ ...c2pRecord(p), trx_date: p.date }));
    if (list.length === 0) {
      return { status: 400, body: { processing_date: vet(), merchant_identify: merchantIdentify, error_list: [{ error_code: PAGO_MOVIL_CODES.NO_MATCH, description: 'No hay transacciones que coincidan con los campos de busqueda' }] } };
    }
    return { status: 200, body: { merchant_identify: merchantIdentify, transaction_list: list } };
  };

  return {
    scp,
    c2p,
    search,
    /** "A buyer sent a pago móvil of X to this merchant": what the bank's search then finds. Returns the payment. */
    receivePayment(payment: { payerPhone: string; payerBankId?: number; payerDocument?: string | null; amountMinor: number; reference?: string; date?: string }): IncomingPagoMovil {
      const reference = payment.reference ?? digits(11);
      const entry: IncomingPagoMovil = {
        reference,
        payerPhone: payment.payerPhone,
        payerBankId: payment.payerBankId ?? PAGO_MOVIL_TEST_DATA.bankId,
        payerDocument: payment.payerDocument ?? null,
        amountMinor: payment.amountMinor,
        date: payment.date ?? caracasDay(),
        authorizationCode: reference.slice(-6).padStart(6, '0'),
      };
      incoming.push(entry);
      return entry;
    },
    incomingPayments: (): readonly IncomingPagoMovil[] => incoming,
    c2pPayments: (): readonly C2pPayment[] => [...c2pPayments.values()],
  };
}

export type PagoMovilDesk = ReturnType<typeof pagoMovilDesk>;
