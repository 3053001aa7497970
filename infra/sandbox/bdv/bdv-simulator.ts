/**
 * A stateful stand-in for Banco de Venezuela's pago móvil API on its real paths and bodies (shared/connectors/bdv/
 * wire.ts; ../shared/reference/pago-movil.md §3): C2P paymentkey, process and annulment, and the P2C verification
 * getMovement over its own ledger of payments received. It checks the X-API-Key of each product family and answers
 * errors with HTTP 200 and a `code`, as the bank does. The sources are transcriptions of the bank's manuals; every
 * rule they do not state is this simulator's own (SIMULATOR_RULES, docs/bdv.md), and the codes outside the bank's
 * table (BDV_SIMULATOR_CODES) are ours.
 */
import { randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../../shared/clock.ts';
import { SIMULATOR_CREDENTIAL_SET, type BdvCredentialSet } from '../../../shared/connectors/bdv/credentials.ts';
import { bdvCentimos } from '../../../shared/connectors/bdv/outcomes.ts';
import { BDV_BANK_CODE, twoDecimals } from '../../../shared/connectors/bdv/requests.ts';
import { API_KEY_HEADER, BDV_PATHS, C2P_CODES, type C2pCode } from '../../../shared/connectors/bdv/wire.ts';
import { isBankCode } from '../../../shared/domain/pago-movil.ts';
import { startNetworkServer, type HoldAnswer } from '../network-server.ts';

/** The reference's C2P sample data, which the simulator accepts: the payer's cédula and phone, and their key. */
export const BDV_TEST_DATA = { document: 'V15404774', phone: '04123963208', otp: '63216413' } as const;

/** The simulator's own rules where the sources are silent (docs/bdv.md lists them). */
export const SIMULATOR_RULES = {
  /** A payer phone 0414000NNNN gets code NNNN of the C2P table from paymentkey and process. */
  codePhonePrefix: '0414000',
  /** C2P debits per payer phone per Caracas day beyond this sum answer 1061: Bs. 10.000,00. */
  dailyLimitMinor: 1_000_000,
  /** The same payer and amount again within this window answers 1094; a getMovement repeat answers "ya fue conciliado". */
  repeatWindowMs: 30_000,
} as const;

/** The simulator's own codes, outside the bank's table: what the sources say nothing about. */
export const BDV_SIMULATOR_CODES = { REFERENCE_REQUIRED: '9001', NOT_ANNULLABLE: '9002' } as const;

/** The test phone that draws `code` from paymentkey and process (SIMULATOR_RULES.codePhonePrefix). */
export const phoneForCode = (code: Exclude<C2pCode, '1000'>): string => `${SIMULATOR_RULES.codePhonePrefix}${code}`;

export type BdvOperation = 'paymentkey' | 'process' | 'annulment' | 'getMovement';

/** Held past any deadline (the work still done), 503, the connection dropped, or HTTP 200 carrying an error code. */
export type BdvFault = 'timeout' | 'server_error' | 'drop' | 'error_code';

const OPERATIONS: Record<string, BdvOperation> = {
  [BDV_PATHS.paymentKey]: 'paymentkey',
  [BDV_PATHS.process]: 'process',
  [BDV_PATHS.annulment]: 'annulment',
  [BDV_PATHS.getMovement]: 'getMovement',
};

export interface BdvCall {
  operation: BdvOperation;
  /** The body as sent, a key other than the published test key masked. */
  body: Record<string, unknown>;
  /** Which of the simulator's keys came in X-API-Key (never the value), null for none or another. */
  keyFamily: 'c2p' | 'conciliation' | null;
}

/** A pago móvil a buyer sent to the merchant's affiliated phone (P2C), as the ledger keeps it. */
export interface IncomingBdvPayment {
  reference: string;
  /** Local form, 04141234567. */
  payerPhone: string;
  payerBank: string;
  payerDocument: string | null;
  amountMinor: number;
  /** YYYY-MM-DD, Caracas time. */
  date: string;
  /** Verified once by getMovement: every later verification answers "ya fue conciliado". */
  conciliated: boolean;
}

export interface BdvDebit {
  endToEndId: string;
  referencia: string;
  amountMinor: number;
  payerPhone: string;
  payerBank: string;
  concept: string;
  date: string;
  at: number;
  annulled: boolean;
}

export interface BdvSimulator {
  /** The base URL to give the connector (the paths hang from the root, as on the bank's hosts). */
  url: string;
  calls(operation?: BdvOperation): BdvCall[];
  /** "A buyer sent a pago móvil of X to this merchant": what getMovement then finds. Returns the payment. */
  receivePayment(payment: { payerPhone: string; payerBank?: string; payerDocument?: string | null; amountMinor: number; reference?: string; date?: string }): IncomingBdvPayment;
  incomingPayments(): readonly IncomingBdvPayment[];
  debits(): readonly BdvDebit[];
  /** The next `count` calls of `operation` meet `fault`. */
  injectFault(operation: BdvOperation, fault: BdvFault, count?: number): void;
  close(): Promise<void>;
}

type Reply = { status: number; body: Record<string, unknown> };

const digits = (length: number) => Array.from({ length }, () => randomInt(10)).join('');
/** Every C2P answer: HTTP 200 and a string code, success or not. */
const c2pAnswer = (code: string, message: string, data: Record<string, unknown> | null = null): Reply => ({ status: 200, body: { code, message, data, status: 200 } });
const tableAnswer = (code: C2pCode) => c2pAnswer(code, C2P_CODES[code]);
/** getMovement answers with a numeric code. */
const movementAnswer = (code: number, message: string, data: Record<string, unknown> | null = null): Reply => ({ status: 200, body: { code, message, data, status: 200 } });
const MOVEMENT_MESSAGES = { notFound: 'Registro solicitado no existe', conciliated: 'El movimiento ya fue conciliado anteriormente', notAffiliated: 'Cliente no afiliado al producto' } as const;
// The simulator's own: a malformed body (the sources show no answer to one).
const malformed = (): Reply => ({ status: 400, body: { code: '400', message: 'Formato de la solicitud inválido', data: null, status: 400 } });

const PHONE = /^04(12|14|16|24|26)\d{7}$/;
const DOCUMENT = /^[VEJGP][A-Z0-9]{5,12}$/;
const sameReference = (a: string, b: string) => a.replace(/^0+/, '') === b.replace(/^0+/, '');
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export async function startBdvSimulator({ clock, credentials = SIMULATOR_CREDENTIAL_SET }: { clock: Clock; credentials?: BdvCredentialSet }): Promise<BdvSimulator> {
  const incoming: IncomingBdvPayment[] = [];
  const debits: BdvDebit[] = [];
  const calls: BdvCall[] = [];
  const faults: { operation: BdvOperation; fault: BdvFault }[] = [];
  const lastVerification = new Map<string, number>();
  const caracas = () => new Date(clock.now() - 4 * 3_600_000).toISOString();
  const today = () => caracas().slice(0, 10);

  /** The payer's checks shared by paymentkey and process: document, phone, then the test phones' codes. */
  const payerRefusal = (body: Record<string, unknown>): Reply | null => {
    const document = text(body.customerDocumentId);
    const phone = text(body.customerNumberInstrument);
    if (document === null || phone === null) return malformed();
    if (!DOCUMENT.test(document)) return tableAnswer('1080');
    if (!PHONE.test(phone)) return tableAnswer('1056');
    const code = phone.startsWith(SIMULATOR_RULES.codePhonePrefix) ? phone.slice(SIMULATOR_RULES.codePhonePrefix.length) : null;
    return code !== null && code !== '1000' && Object.hasOwn(C2P_CODES, code) ? tableAnswer(code as C2pCode) : null;
  };

  const paymentKey = (body: Record<string, unknown>): Reply => payerRefusal(body) ?? c2pAnswer('1000', 'Proceso finalizado');

  const process = (body: Record<string, unknown>): Reply => {
    const amount = text(body.amount);
    const bank = text(body.customerBankCode);
    const concept = text(body.concept);
    if (amount === null || bank === null || concept === null || typeof body.otp !== 'string' || body.coinType !== 'VES' || body.operationType !== 'CELE') return malformed();
    if (concept.length > 100 || /[^\x20-\x7e]/.test(concept)) return malformed();
    const refusal = payerRefusal(body);
    if (refusal) return refusal;
    const amountMinor = /^\d+\.\d{1,2}$/.test(amount) ? bdvCentimos(amount) : null;
    if (!amountMinor) return tableAnswer('1013');
    if (!isBankCode(bank)) return tableAnswer('1092');
    if (body.commerceNumberInstrument !== credentials.affiliatedPhone) return tableAnswer('1014');
    if (body.otp !== BDV_TEST_DATA.otp) return tableAnswer('1055');
    const phone = body.customerNumberInstrument as string;
    const mine = debits.filter((d) => d.payerPhone === phone && !d.annulled);
    if (mine.some((d) => d.amountMinor === amountMinor && clock.now() - d.at < SIMULATOR_RULES.repeatWindowMs)) return tableAnswer('1094');
    const spentToday = mine.filter((d) => d.date === today()).reduce((sum, d) => sum + d.amountMinor, 0);
    if (spentToday + amountMinor > SIMULATOR_RULES.dailyLimitMinor) return tableAnswer('1061');
    const referencia = digits(12);
    const stamp = caracas().slice(0, 19).replace(/\D/g, '');
    // The shape of the reference's one sample: BDV, payer bank, 405, ten digits, payer phone, Caracas time, referencia.
    const debit: BdvDebit = { endToEndId: `${BDV_BANK_CODE}${bank}405${digits(10)}${phone}${stamp}${referencia}`, referencia, amountMinor, payerPhone: phone, payerBank: bank, concept, date: today(), at: clock.now(), annulled: false };
    debits.push(debit);
    return c2pAnswer('1000', 'Transaccion realizada', { date: debit.date, endToEndId: debit.endToEndId, cuenta: '', saldoDisponible: '', cuentaDivisa: '', saldoCuentaDivisa: '', referencia });
  };

  const annulment = (body: Record<string, unknown>): Reply => {
    const endToEndId = text(body.endToEndId);
    const referenceOrigin = text(body.referenceOrigin);
    if (!endToEndId || referenceOrigin === null) return malformed();
    const debit = debits.find((d) => d.endToEndId === endToEndId);
    // Our rule: a debit of the same Caracas day, once (the sources give no window).
    if (!debit || debit.annulled || debit.date !== today()) return c2pAnswer(BDV_SIMULATOR_CODES.NOT_ANNULLABLE, 'La operación no puede ser reversada');
    if (debit.payerBank !== BDV_BANK_CODE && referenceOrigin !== debit.referencia) return c2pAnswer(BDV_SIMULATOR_CODES.REFERENCE_REQUIRED, 'Referencia de origen requerida');
    debit.annulled = true;
    return c2pAnswer('1000', 'reverso realizada', { date: today(), endToEndId: '', cuenta: '', saldoDisponible: '', cuentaDivisa: '', saldoCuentaDivisa: '', referencia: null });
  };

  const getMovement = (body: Record<string, unknown>, apiKey: string | undefined): Reply => {
    if (apiKey !== credentials.conciliationApiKey) return movementAnswer(1010, MOVEMENT_MESSAGES.notAffiliated);
    const [reference, phone, destination, date, importe, bank] = [body.referencia, body.telefonoPagador, body.telefonoDestino, body.fechaPago, body.importe, body.bancoOrigen].map(text);
    const asked = importe === null ? null : bdvCentimos(importe);
    if (!reference || !phone || !destination || !date || !bank || asked === null || typeof body.reqCed !== 'boolean' || typeof body.cedulaPagador !== 'string') return malformed();
    // Our reading of "also for a repeat within 30 s": the same payment asked again that soon, whatever the first answer.
    const key = [reference.replace(/^0+/, ''), phone, date, bank].join('|');
    const previous = lastVerification.get(key);
    lastVerification.set(key, clock.now());
    if (previous !== undefined && clock.now() - previous < SIMULATOR_RULES.repeatWindowMs) return movementAnswer(1010, MOVEMENT_MESSAGES.conciliated);
    const payment = incoming.find(
      (p) => destination === credentials.affiliatedPhone && sameReference(p.reference, reference) && p.payerPhone === phone && p.date === date && p.payerBank === bank && (!body.reqCed || p.payerDocument === body.cedulaPagador),
    );
    if (!payment) return movementAnswer(1010, MOVEMENT_MESSAGES.notFound);
    if (payment.conciliated) return movementAnswer(1010, MOVEMENT_MESSAGES.conciliated);
    const received = twoDecimals(payment.amountMinor);
    // Our wording: the sources say only that the message carries the real amount. A wrong amount does not conciliate.
    if (payment.amountMinor !== asked) return movementAnswer(1010, `El monto no coincide con el movimiento. Monto: ${received}`);
    payment.conciliated = true;
    return movementAnswer(1000, `Monto: ${received} - estatus: Transacción realizada`, { status: '1000', amount: received, reason: 'Transacción realizada', referencia: payment.reference });
  };

  /** The bank's kind of error for the fault error_code: HTTP 200, a failure code. */
  const errorCodeAnswer = (operation: BdvOperation): Reply => (operation === 'getMovement' ? movementAnswer(1010, 'Error interno del servicio') : tableAnswer('1002'));

  const handle = async (req: IncomingMessage, res: ServerResponse, hold: HoldAnswer): Promise<Reply | null> => {
    const raw = await readBody(req);
    const operation = OPERATIONS[new URL(req.url ?? '/', 'http://bank').pathname];
    if (req.method !== 'POST' || !operation) return { status: 404, body: { code: '404', message: 'Not Found', data: null, status: 404 } };
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw || '{}');
      body = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return malformed();
    }
    const apiKey = req.headers[API_KEY_HEADER.toLowerCase()] as string | undefined;
    const keyFamily = apiKey === undefined ? null : apiKey === credentials.c2pApiKey ? 'c2p' : apiKey === credentials.conciliationApiKey ? 'conciliation' : null;
    calls.push({ operation, body: typeof body.otp === 'string' && body.otp !== BDV_TEST_DATA.otp ? { ...body, otp: '*'.repeat(body.otp.length) } : body, keyFamily });
    const at = faults.findIndex((f) => f.operation === operation);
    const fault = at >= 0 ? faults.splice(at, 1)[0]!.fault : null;
    if (fault === 'drop') {
      res.destroy();
      return null;
    }
    if (fault === 'server_error') return { status: 503, body: { message: 'Service Unavailable' } };
    if (fault === 'error_code') return errorCodeAnswer(operation);
    let reply: Reply;
    if (operation === 'getMovement') reply = getMovement(body, apiKey);
    // Our rule: a C2P call without the C2P key is refused before the bank reads it (the sources show no such answer).
    else if (!credentials.c2pApiKey || apiKey !== credentials.c2pApiKey) reply = { status: 401, body: { code: '401', message: 'API Key inválida', data: null, status: 401 } };
    else reply = { paymentkey: paymentKey, process, annulment }[operation](body);
    if (fault === 'timeout') await hold(res);
    return reply;
  };

  const { url, close } = await startNetworkServer(handle);
  return {
    url,
    calls: (operation) => calls.filter((c) => !operation || c.operation === operation),
    receivePayment(payment) {
      const entry: IncomingBdvPayment = {
        reference: payment.reference ?? digits(12),
        payerPhone: payment.payerPhone,
        payerBank: payment.payerBank ?? BDV_BANK_CODE,
        payerDocument: payment.payerDocument ?? null,
        amountMinor: payment.amountMinor,
        date: payment.date ?? today(),
        conciliated: false,
      };
      incoming.push(entry);
      return entry;
    },
    incomingPayments: () => incoming,
    debits: () => debits,
    injectFault: (operation, fault, count = 1) => {
      for (let i = 0; i < count; i++) faults.push({ operation, fault });
    },
    close,
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
