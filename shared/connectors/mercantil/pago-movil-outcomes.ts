/**
 * Mercantil's pago móvil answers as the port's outcomes. Errors come as the card API's (error_list, or an IBM gateway
 * error): errorOutcome reads both. The bank publishes two readable codes (0300: the key could not be requested; 0330:
 * no payment matches a search); every other code is passed on as the bank's own, with the generic Spanish text.
 */
import type { BankReply } from '../../gateways/bank-http.ts';
import type { IncomingPaymentOutcome, PaymentKeyOutcome } from '../../gateways/pago-movil-port.ts';
import type { GatewayOutcome } from '../../gateways/payment-gateway.ts';
import { errorOutcome, MERCANTIL_CODES, recordOutcome } from './outcomes.ts';
import { PAGO_MOVIL_CODES, type C2pResponse, type MobilePaymentRecord, type MobilePaymentSearchResponse, type ScpResponse } from './pago-movil-wire.ts';

/** The buyer-facing Spanish text of pago móvil answers whose code has no published meaning. */
export const PAGO_MOVIL_REASONS = {
  declined: 'Tu banco rechazó el pago móvil. Revisa el banco, el teléfono, la cédula y la clave de pago, o pide una clave nueva.',
  keyRefused: 'Tu banco no pudo enviarte la clave de pago. Revisa el banco, el teléfono y la cédula.',
} as const;

/**
 * Bolívares as the bank writes them (5250, "5.00", 52.5) to céntimos, exactly: the decimal text is read, never
 * multiplied as a float. Null when it is not an amount.
 *
 * @example
 * centimos('52.5') // 5250
 */
export function centimos(value: number | string | undefined): number | null {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(value ?? ''));
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : null;
}

/** A compra, anulacion or vuelto answer: approved with the bank's payment_reference, or the bank's rejection. */
export function c2pOutcome(reply: BankReply): GatewayOutcome {
  const error = errorOutcome(reply);
  if (error) return error.kind === 'declined' ? { ...error, reason: PAGO_MOVIL_REASONS.declined } : error;
  const record = (reply.body as C2pResponse).transaction_c2p_response;
  if (!record) return { kind: 'failed', code: MERCANTIL_CODES.GATEWAY_ERROR, detail: 'Mercantil answered the C2P payment without transaction_c2p_response.' };
  const outcome = recordOutcome(record);
  return outcome.kind === 'declined' ? { ...outcome, reason: PAGO_MOVIL_REASONS.declined } : outcome;
}

/** A key request's answer: sent on trx_internal_status 0000; an error_list is the bank's refusal (0300). */
export function scpOutcome(reply: BankReply): PaymentKeyOutcome {
  const error = errorOutcome(reply);
  if (error) {
    const { code, detail } = error as Extract<GatewayOutcome, { kind: 'declined' | 'failed' }>;
    return error.kind === 'declined' ? { kind: 'refused', code, detail, reason: PAGO_MOVIL_REASONS.keyRefused } : { kind: 'failed', code, detail };
  }
  const status = (reply.body as ScpResponse).transactionScpInfoResponse?.trx_internal_status;
  return status === '0000'
    ? { kind: 'sent' }
    : { kind: 'failed', code: MERCANTIL_CODES.GATEWAY_ERROR, detail: `Mercantil answered the key request with trx_internal_status "${status ?? ''}", which it does not document.` };
}

/** References compared as the digits they are: the bank answers a JSON number, which drops leading zeros. */
const sameReference = (a: unknown, b: string) => String(a ?? '').replace(/^0+/, '') === b.replace(/^0+/, '');

/** The P2C payment with the buyer's reference in a search answer; 0330 (no match) is "not found yet". */
export function incomingPaymentOutcome(reply: BankReply, reference: string): IncomingPaymentOutcome {
  const error = errorOutcome(reply);
  if (error) {
    const { code, detail } = error as Extract<GatewayOutcome, { kind: 'declined' | 'failed' }>;
    return code === PAGO_MOVIL_CODES.NO_MATCH ? { kind: 'not_found' } : { kind: 'failed', code, detail };
  }
  const record = ((reply.body as MobilePaymentSearchResponse).transaction_list ?? []).find((r) => r.payment_method === 'p2c' && sameReference(r.payment_reference, reference));
  if (!record) return { kind: 'not_found' };
  return foundPayment(record);
}

function foundPayment(record: MobilePaymentRecord): IncomingPaymentOutcome {
  const amountMinor = centimos(record.amount);
  if (amountMinor === null) return { kind: 'failed', code: MERCANTIL_CODES.GATEWAY_ERROR, detail: `Mercantil answered an amount it does not document: ${String(record.amount)}.` };
  return {
    kind: 'found',
    amountMinor,
    processorReference: String(record.payment_reference),
    ...(record.authorization_code ? { authorizationCode: record.authorization_code } : {}),
  };
}
