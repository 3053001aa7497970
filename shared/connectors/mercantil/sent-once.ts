/**
 * How every money-moving call to Mercantil is sent (a card `pay`, a C2P compra, anulacion or vuelto): once, never
 * repeated, and settled from the bank's own record wherever its answer leaves doubt. A timeout leaves the outcome
 * unknown (pending, settled by a status read later); a 5xx or a dropped connection is settled by reading the record
 * at once; a refusal is checked against the record, so a repeat of an invoice the bank already paid answers that
 * approval instead of a duplicate-invoice error.
 */
import { SERVICE_CODES } from '../../domain/decline-codes.ts';
import type { BankReply } from '../../gateways/bank-http.ts';
import { GatewayTimeoutError, GatewayUnavailableError, type GatewayOutcome } from '../../gateways/payment-gateway.ts';

export type BankRecord = GatewayOutcome | { kind: 'not_found' };

export async function sentOnce(send: () => Promise<BankReply>, outcomeOf: (reply: BankReply) => GatewayOutcome, read: () => Promise<BankRecord>): Promise<GatewayOutcome> {
  try {
    const reply = await send();
    if (reply.status < 500) {
      const outcome = outcomeOf(reply);
      if (outcome.kind !== 'declined') return outcome;
      const known = await read().catch(() => null);
      return known?.kind === 'approved' ? known : outcome;
    }
  } catch (error) {
    if (error instanceof GatewayTimeoutError) return { kind: 'unknown', detail: error.message };
    if (!(error instanceof GatewayUnavailableError)) throw error;
  }
  try {
    const known = await read();
    return known.kind === 'not_found' ? { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: 'Mercantil failed to process the payment and has no record of it.' } : known;
  } catch (error) {
    if (!(error instanceof GatewayUnavailableError)) throw error;
    return { kind: 'unknown', detail: `Mercantil failed and its record could not be read: ${error.message}` };
  }
}
