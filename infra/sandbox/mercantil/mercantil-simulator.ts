/**
 * A stateful stand-in for Banco Mercantil's card API, speaking its real paths under the sandbox base path
 * (/mercantil-banco/sandbox/v1/payment/getauth|pay|search), JSON bodies, the X-IBM-Client-Id header and the bank's
 * field encryption, with the bank's published test data (docs/connectors.md). Where the bank's sources are silent
 * (its error catalogue, HTTP statuses, duplicate invoices), the behaviour and the codes are the simulator's own,
 * listed in SIMULATOR_CODES and documented as such. Keeps charges by invoice_number (a repeat never charges twice)
 * with only the card's last four digits; its record of requests (for contract tests) keeps a card number only when
 * it is one of the bank's published test cards, any other masked to its last four (CVVs arrive encrypted).
 */
import { randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../../shared/clock.ts';
import { startNetworkServer, type HoldAnswer } from '../network-server.ts';
import { SIMULATOR_CREDENTIAL_SET, type MercantilCredentialSet } from '../../../shared/connectors/mercantil/credentials.ts';
import { decryptField, encryptField } from '../../../shared/connectors/mercantil/field-cipher.ts';
import { processingDate } from '../../../shared/connectors/mercantil/requests.ts';
import { pagoMovilDesk, type PagoMovilDesk } from './pago-movil-desk.ts';

/** The sandbox base path of the bank's own code; the simulator answers the same paths under it. */
export const MERCANTIL_SANDBOX_PATH = '/mercantil-banco/sandbox/v1';

/** The bank's test data from its sandbox screenshots (reference §1.7). */
export const MERCANTIL_TEST_DATA = {
  debit: { cardNumber: '501878201234567890', customerIds: ['V999999', 'V9999999'], expiration: '2040/11', cvv: '111', otp: '11111111', accountType: 'CC' },
  credit: { cardNumber: '5412478846849445', expiration: '2025/01', cvv: '123' },
} as const;

/** The simulator's own error codes: the bank's catalogue is in a PDF nobody could read, so none of these is the bank's. */
export const SIMULATOR_CODES = {
  CARD_REFUSED: '9001',
  WRONG_CVV: '9002',
  WRONG_OTP: '9003',
  DUPLICATE_INVOICE: '9004',
  MERCHANT_UNKNOWN: '9005',
  FORMAT: '9006',
} as const;

export type MercantilFault = 'timeout' | 'server_error' | 'drop';

/** The bank's paths under the base path, by the name the simulator's calls and faults use. */
const OPERATIONS = {
  '/payment/getauth': 'getauth',
  '/payment/pay': 'pay',
  '/payment/search': 'search',
  '/mobile-payment/scp': 'scp',
  '/payment/c2p': 'c2p',
  '/mobile-payment/search': 'mobile-search',
} as const;

type Operation = (typeof OPERATIONS)[keyof typeof OPERATIONS];

export interface MercantilCall {
  operation: Operation;
  invoice: string | null;
  /** The request body as sent (encrypted fields stay encrypted; a card number not a test card masked), for contract tests. */
  body: Record<string, unknown>;
  clientId: string | undefined;
}

export interface MercantilSimulator {
  /** The base URL to give the connector: {url}/mercantil-banco/sandbox/v1. */
  baseUrl: string;
  calls(operation?: MercantilCall['operation']): MercantilCall[];
  /** Pago móvil: the payments received (P2C ledger) and C2P operations, and the control that fills the ledger. */
  pagoMovil: Pick<PagoMovilDesk, 'receivePayment' | 'incomingPayments' | 'c2pPayments'>;
  /** The next `count` calls of `operation` meet `fault`: held past any deadline (the pay is still made), 503, or the connection dropped. */
  injectFault(operation: MercantilCall['operation'], fault: MercantilFault, count?: number): void;
  close(): Promise<void>;
}

interface Charge {
  invoice: string;
  status: 'approved' | 'rejected';
  reference: string;
  amount: number;
  method: string;
  lastFour: string;
  customerId: string;
  date: string;
  at: string;
}

type Reply = { status: number; body: Record<string, unknown> };

const errorList = (status: number, code: string, description: string): Reply => ({ status, body: { error_list: [{ error_code: code, description }] } });

export async function startMercantilSimulator({ clock, credentials = SIMULATOR_CREDENTIAL_SET }: { clock: Clock; credentials?: MercantilCredentialSet }): Promise<MercantilSimulator> {
  const charges = new Map<string, Charge>();
  const calls: MercantilCall[] = [];
  const faults: { operation: MercantilCall['operation']; fault: MercantilFault }[] = [];
  const merchantIdentify = { integratorId: credentials.integratorId, merchantId: credentials.merchantId, terminalId: credentials.terminalId };
  const vet = () => `${new Date(clock.now() - 4 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ')} VET`;
  const decrypt = (value: unknown): string | null => {
    try {
      return typeof value === 'string' ? decryptField(value, credentials.secretKey) : null;
    } catch {
      return null;
    }
  };
  // The simulator's own rule: a test card's published expiry, or any expiry not yet past (the credit card's published
  // 2025/01 has passed, and a checkout refuses a past expiry before the bank sees it).
  const notExpired = (expiration: string | null) => {
    const today = processingDate(new Date(clock.now())).slice(0, 7);
    return expiration !== null && /^\d{4}\/\d{2}$/.test(expiration) && expiration >= today;
  };
  const sameMerchant = (body: Record<string, unknown>) => {
    const m = body.merchant_identify as Record<string, unknown> | undefined;
    return m?.integratorId === merchantIdentify.integratorId && m.merchantId === merchantIdentify.merchantId && m.terminalId === merchantIdentify.terminalId;
  };

  const desk = pagoMovilDesk({ clock, merchantIdentify, decrypt, encrypt: (text) => encryptField(text, credentials.secretKey), vet });

  const getauth = (body: Record<string, unknown>): Reply => {
    const info = body.transaction_authInfo as Record<string, unknown> | undefined;
    if (info?.trx_type !== 'solaut' || info.payment_method !== 'tdd') return errorList(400, SIMULATOR_CODES.FORMAT, 'Formato de la solicitud inválido');
    const { debit } = MERCANTIL_TEST_DATA;
    if (info.card_number !== debit.cardNumber || !(debit.customerIds as readonly unknown[]).includes(info.customer_id)) {
      return errorList(400, SIMULATOR_CODES.CARD_REFUSED, 'Tarjeta no autorizada');
    }
    const enc = (text: string) => encryptField(text, credentials.secretKey);
    return {
      status: 200,
      body: {
        merchant_identify: merchantIdentify,
        authentication_info: {
          processing_date: vet(),
          trx_status: 'approved',
          trx_type: 'solaut',
          payment_method: 'tdd',
          twofactor_type: enc('clavetelefonica'),
          twofactor_label: enc('Clave telefónica'),
          twofactor_field_type: enc('numeric'),
          twofactor_lenght: enc(String(debit.otp.length)),
        },
      },
    };
  };

  /** Judges a payment once per invoice; the bank's expiry field is accepted plain or encrypted (its samples do both). */
  const pay = (body: Record<string, unknown>): Reply => {
    const t = body.transaction as Record<string, unknown> | undefined;
    const amount = Number(t?.amount);
    if (!t || t.trx_type !== 'compra' || typeof t.invoice_number !== 'string' || !/^\d+$/.test(t.invoice_number) || !(amount > 0) || t.currency !== 'ves') {
      return errorList(400, SIMULATOR_CODES.FORMAT, 'Formato de la solicitud inválido');
    }
    if (charges.has(t.invoice_number)) return errorList(409, SIMULATOR_CODES.DUPLICATE_INVOICE, 'Número de factura duplicado');
    const cvv = decrypt(t.cvv);
    const expiration = typeof t.expiration_date === 'string' && /^\d{4}\/\d{2}$/.test(t.expiration_date) ? t.expiration_date : decrypt(t.expiration_date);
    const card = t.payment_method === 'tdd' ? MERCANTIL_TEST_DATA.debit : t.payment_method === 'tdc' ? MERCANTIL_TEST_DATA.credit : null;
    let refusal: Reply | null = null;
    if (!card || t.card_number !== card.cardNumber || !(expiration === card.expiration || notExpired(expiration))) refusal = errorList(402, SIMULATOR_CODES.CARD_REFUSED, 'Tarjeta no autorizada');
    else if (cvv !== card.cvv) refusal = errorList(402, SIMULATOR_CODES.WRONG_CVV, 'CVV inválido');
    else if (t.payment_method === 'tdd' && (decrypt(t.twofactor_auth) !== MERCANTIL_TEST_DATA.debit.otp || t.account_type !== MERCANTIL_TEST_DATA.debit.accountType)) {
      // The simulator's own rule: a wrong clave or account type is refused before any payment is made, so the
      // invoice stays free for the buyer's next entry (the bank's own behaviour here is unpublished).
      return errorList(402, SIMULATOR_CODES.WRONG_OTP, 'Clave de autenticación inválida');
    }
    const charge: Charge = {
      invoice: t.invoice_number,
      status: refusal ? 'rejected' : 'approved',
      // Thirteen digits, like the bank's sample payment_reference 0082338419478.
      reference: refusal ? '' : Array.from({ length: 13 }, () => randomInt(10)).join(''),
      amount,
      method: String(t.payment_method),
      lastFour: String(t.card_number ?? '').slice(-4),
      customerId: String(t.customer_id ?? ''),
      date: processingDate(new Date(clock.now())),
      at: vet(),
    };
    charges.set(charge.invoice, charge);
    return refusal ?? { status: 200, body: { merchant_identify: merchantIdentify, transaction_response: record(charge) } };
  };

  const record = (c: Charge) => ({
    processing_date: c.at,
    trx_status: c.status,
    payment_reference: c.reference,
    trx_internal_status: c.status === 'approved' ? '0000' : SIMULATOR_CODES.CARD_REFUSED,
    trx_type: 'compra',
    payment_method: c.method,
    invoice_number: c.invoice,
    amount: c.amount,
    currency: 'ves',
  });

  const search = (body: Record<string, unknown>): Reply => {
    const by = body.search_by as Record<string, unknown> | undefined;
    if (by?.search_criteria !== 'unique' || typeof by.invoice_number !== 'string') return errorList(400, SIMULATOR_CODES.FORMAT, 'Formato de la solicitud inválido');
    const found = charges.get(by.invoice_number);
    // By invoice alone: the sandbox clock may be moved by days, and the bank's own date rule is undocumented.
    const list = found ? [{ ...record(found), card_number: `${'*'.repeat(12)}${found.lastFour}`, customer_id: found.customerId }] : [];
    return { status: 200, body: { merchant_identify: merchantIdentify, transaction_list: list } };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, hold: HoldAnswer): Promise<Reply | null> => {
    const raw = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://bank').pathname;
    const operation = path.startsWith(MERCANTIL_SANDBOX_PATH) ? OPERATIONS[path.slice(MERCANTIL_SANDBOX_PATH.length) as keyof typeof OPERATIONS] : undefined;
    if (req.method !== 'POST' || !operation) {
      return { status: 404, body: { httpCode: '404', httpMessage: 'Not Found', moreInformation: 'No resources match requested URI' } };
    }
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw || '{}');
      body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return errorList(400, SIMULATOR_CODES.FORMAT, 'Formato de la solicitud inválido');
    }
    const clientId = req.headers['x-ibm-client-id'] as string | undefined;
    const invoice = ((body.transaction ?? body.transaction_c2p ?? body.search_by) as Record<string, unknown> | undefined)?.invoice_number;
    calls.push({ operation, invoice: typeof invoice === 'string' ? invoice : null, body: recordable(body), clientId });
    const faultAt = faults.findIndex((f) => f.operation === operation);
    const fault = faultAt >= 0 ? faults.splice(faultAt, 1)[0]!.fault : null;
    if (fault === 'drop') {
      res.destroy();
      return null;
    }
    if (fault === 'server_error') return { status: 503, body: { httpCode: '503', httpMessage: 'Service Unavailable', moreInformation: 'The backend service is unavailable' } };
    // The IBM gateway refuses an unknown client id before the bank sees the request.
    if (clientId !== credentials.clientId) return { status: 401, body: { httpCode: '401', httpMessage: 'Unauthorized', moreInformation: 'Invalid client id or secret.' } };
    if (!sameMerchant(body)) return errorList(401, SIMULATOR_CODES.MERCHANT_UNKNOWN, 'Comercio no autorizado');
    const reply = { getauth, pay, search, scp: desk.scp, c2p: desk.c2p, 'mobile-search': desk.search }[operation](body);
    if (fault === 'timeout') await hold(res);
    return reply;
  };

  const { url, close } = await startNetworkServer(handle);
  return {
    baseUrl: `${url}${MERCANTIL_SANDBOX_PATH}`,
    calls: (operation) => calls.filter((c) => !operation || c.operation === operation),
    pagoMovil: { receivePayment: desk.receivePayment, incomingPayments: desk.incomingPayments, c2pPayments: desk.c2pPayments },
    injectFault: (operation, fault, count = 1) => {
      for (let i = 0; i < count; i++) faults.push({ operation, fault });
    },
    close,
  };
}

const TEST_CARD_NUMBERS: readonly unknown[] = [MERCANTIL_TEST_DATA.debit.cardNumber, MERCANTIL_TEST_DATA.credit.cardNumber];

/** The body with any card number that is not one of the bank's test cards masked to its last four. */
function recordable(body: Record<string, unknown>): Record<string, unknown> {
  const mask = (block: unknown) => {
    if (!block || typeof block !== 'object') return block;
    const { card_number: number, ...rest } = block as Record<string, unknown>;
    if (number === undefined || TEST_CARD_NUMBERS.includes(number)) return block;
    return { ...rest, card_number: `${'*'.repeat(Math.max(0, String(number).length - 4))}${String(number).slice(-4)}` };
  };
  return { ...body, ...(body.transaction ? { transaction: mask(body.transaction) } : {}), ...(body.transaction_authInfo ? { transaction_authInfo: mask(body.transaction_authInfo) } : {}) };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
