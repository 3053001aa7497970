/**
 * Banco de Venezuela's answers as the port's outcomes. The bank answers HTTP 200 to errors too, so an answer is judged
 * by its `code` alone: "1000" (C2P) or 1000 (getMovement) is success, anything else is not, whatever the HTTP status
 * (one integration shipped a bug by treating 200 as success). Each code of the C2P table is approved, declined (the
 * payer's bank or account said no: the buyer can act) or failed (ours, the merchant's or the bank's side), with a
 * Spanish reason for the buyer. getMovement answers every other outcome with 1010, told apart by its message.
 */
import { SERVICE_CODES } from '../../domain/decline-codes.ts';
import type { BankReply } from '../../gateways/bank-http.ts';
import type { IncomingPaymentOutcome, PaymentKeyOutcome } from '../../gateways/pago-movil-port.ts';
import type { GatewayOutcome } from '../../gateways/payment-gateway.ts';
import { MOVEMENT_CODES, type C2pCode, type C2pResponse, type GetMovementResponse } from './wire.ts';

/** What the buyer reads when a code says nothing they can act on. */
export const BDV_REASONS = {
  declined: 'Tu banco rechazó el pago móvil. Revisa el banco, el teléfono, la cédula y la clave de pago, o usa otro método de pago.',
  failed: 'No pudimos procesar el pago móvil en este momento. Inténtalo de nuevo en unos minutos.',
  duplicate: 'Tu banco ya registró un pago igual hace poco. Revisa si ya se cobró antes de intentarlo de nuevo.',
} as const;

type Judgement = { kind: 'declined' | 'failed'; reason: string };

const declined = (reason: string = BDV_REASONS.declined): Judgement => ({ kind: 'declined', reason });
const failed = (reason: string = BDV_REASONS.failed): Judgement => ({ kind: 'failed', reason });

/** Every code of the reference's C2P table but 1000; docs/bdv.md has the same table with the reasoning. */
export const C2P_JUDGEMENTS: Record<Exclude<C2pCode, '1000'>, Judgement> = {
  '1002': failed(),
  '1006': failed(),
  '1013': failed(),
  // The beneficiary of a C2P is the merchant: its phone is not on PagomóvilBDV, nothing the buyer can fix.
  '1014': failed(),
  '1015': declined('Tu teléfono no está afiliado al servicio de clave de pago de tu banco. Afílialo o usa otro método de pago.'),
  '1026': declined(BDV_REASONS.duplicate),
  '1034': declined('Tu cuenta no tiene saldo suficiente. Prueba con otra cuenta u otro método de pago.'),
  '1041': failed(),
  // The bank's own timeout: whether the debit can still land is unsaid, so the buyer is told to look before retrying.
  '1050': failed('Tu banco no respondió a tiempo. Antes de intentarlo de nuevo, revisa en tu banco que no se haya cobrado.'),
  '1055': declined('La clave de pago no existe o ya venció. Pide una clave nueva e inténtalo de nuevo.'),
  '1056': declined('El teléfono no corresponde con la cédula del titular de la cuenta. Revisa ambos datos.'),
  '1061': declined('El monto supera tu límite diario de pago móvil. Usa otro método de pago o inténtalo mañana.'),
  // "Cuenta con inconvenientes": what is wrong with the account is the bank's to tell, not ours.
  '1062': declined(),
  '1065': declined('Superaste la cantidad de pagos móviles que tu banco permite. Inténtalo más tarde o usa otro método de pago.'),
  '1080': declined('La cédula no es válida. Revísala e inténtalo de nuevo.'),
  '1091': failed('Tu banco no está disponible en este momento. Inténtalo más tarde o usa otro método de pago.'),
  '1092': declined('Tu banco no ofrece este pago móvil. Usa otro método de pago.'),
  '1094': declined(BDV_REASONS.duplicate),
};

const judgementOf = (code: string): Judgement | undefined => (Object.hasOwn(C2P_JUDGEMENTS, code) ? C2P_JUDGEMENTS[code as keyof typeof C2P_JUDGEMENTS] : undefined);

/** A C2P answer's code, or null when the reply is not a BDV answer (a non-200, a body without code). */
const c2pCode = (reply: BankReply): string | null => {
  const code = (reply.body as C2pResponse).code;
  return reply.status === 200 && (typeof code === 'string' || typeof code === 'number') ? String(code) : null;
};

/**
 * A process or annulment answer; null when the reply is no BDV answer at all (the caller decides: a money-moving call
 * is then unknown). `approvedReference` is the processor reference of a 1000.
 */
export function c2pOutcome(reply: BankReply, approvedReference: (data: NonNullable<C2pResponse['data']>) => string): GatewayOutcome | null {
  const code = c2pCode(reply);
  if (code === null) return null;
  const { message, data } = reply.body as C2pResponse;
  if (code === '1000') return { kind: 'approved', processorReference: approvedReference(data ?? {}) };
  const detail = `Banco de Venezuela answered code ${code}: ${message ?? ''}`.trim();
  const judgement = judgementOf(code);
  // A code outside the table moved no money (only 1000 does) and says nothing the buyer can act on.
  return judgement ? { kind: judgement.kind, code, detail, reason: judgement.reason } : { kind: 'failed', code, detail, reason: BDV_REASONS.failed };
}

/** A process answer: the endToEndId is what an annulment needs; the referencia only when the bank left it out. */
export const processOutcome = (reply: BankReply) => c2pOutcome(reply, (data) => data.endToEndId || data.referencia || '');

/** An annulment answer carries no id of its own (endToEndId "", referencia null): the reversed debit's is kept. */
export const annulmentOutcome = (reply: BankReply, endToEndId: string) => c2pOutcome(reply, (data) => data.referencia || data.endToEndId || endToEndId);

/** A paymentkey answer: sent on 1000; a code the buyer can act on is a refusal with its reason; anything else failed. */
export function paymentKeyOutcome(reply: BankReply): PaymentKeyOutcome {
  const outcome = c2pOutcome(reply, () => '');
  if (!outcome) return { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: `Banco de Venezuela did not answer the key request (HTTP ${reply.status}).` };
  if (outcome.kind === 'approved') return { kind: 'sent' };
  const { code, detail, reason } = outcome as Extract<GatewayOutcome, { kind: 'declined' | 'failed' }>;
  return outcome.kind === 'declined' ? { kind: 'refused', code, detail, ...(reason ? { reason } : {}) } : { kind: 'failed', code, detail };
}

/**
 * Bolívares as the bank writes them ("120.00", "120", and in a message perhaps "1.500,00") to céntimos, read as text,
 * never multiplied as a float. Null when it is not an amount.
 *
 * @example
 * bdvCentimos('1.500,00') // 150000
 */
export function bdvCentimos(text: string | undefined): number | null {
  const plain = String(text ?? '').includes(',') ? String(text).replace(/\./g, '').replace(',', '.') : String(text ?? '');
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(plain);
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : null;
}

/** The amount after the last "monto" of a message ("... Monto: 150.00"), or null. */
function amountInMessage(message: string): number | null {
  const at = message.toLowerCase().lastIndexOf('monto');
  const token = at < 0 ? null : /\d[\d.,]*\d|\d/.exec(message.slice(at));
  return token ? bdvCentimos(token[0]) : null;
}

/** Lower case without accents: the 1010 messages are matched on their words, however the bank accents them. */
const plainWords = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/**
 * A getMovement answer. 1000 is found, with the amount the bank recorded. A 1010 is told apart by its message:
 * "no existe" not found (yet), "ya fue conciliado" already claimed, "no afiliado" (a wrong key) failed, and a message
 * with an amount the payment found with that amount (the bank's message text for it is unpublished: docs/bdv.md).
 */
export function movementOutcome(reply: BankReply, reference: string): IncomingPaymentOutcome {
  const { code, message = '', data } = reply.body as GetMovementResponse;
  if (reply.status !== 200 || code === undefined) {
    return { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: `Banco de Venezuela did not answer getMovement (HTTP ${reply.status}).` };
  }
  const detail = `Banco de Venezuela answered getMovement with code ${String(code)}: ${message}`;
  if (String(code) === String(MOVEMENT_CODES.FOUND)) {
    const amountMinor = bdvCentimos(data?.amount) ?? amountInMessage(message);
    if (amountMinor === null) return { kind: 'failed', code: String(code), detail: `${detail} (no amount it documents: ${String(data?.amount)})` };
    return { kind: 'found', amountMinor, processorReference: data?.referencia || reference };
  }
  if (String(code) !== String(MOVEMENT_CODES.NOT_CONCILIATED)) return { kind: 'failed', code: String(code), detail };
  const words = plainWords(message);
  if (words.includes('no existe')) return { kind: 'not_found' };
  if (words.includes('conciliado')) return { kind: 'already_claimed' };
  if (words.includes('no afiliado')) return { kind: 'failed', code: String(code), detail };
  const received = amountInMessage(message);
  return received === null ? { kind: 'failed', code: String(code), detail } : { kind: 'found', amountMinor: received, processorReference: reference };
}
