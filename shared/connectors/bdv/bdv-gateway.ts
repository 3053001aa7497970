/**
 * Banco de Venezuela's pago móvil operations behind the port: the C2P debit (process) and its annulment, the key
 * request (paymentkey) and the verification of a received P2C payment (getMovement). Nothing here is ever sent twice:
 * C2P calls move money, a key request sends the payer an SMS, and getMovement conciliates what it finds, so a repeat
 * answers "ya fue conciliado". BDV publishes no status read of a C2P operation (docs/bdv.md: what a lost answer becomes).
 */
import { SERVICE_CODES } from '../../domain/decline-codes.ts';
import type { BankReply } from '../../gateways/bank-http.ts';
import type { IncomingPaymentOutcome, IncomingPaymentQuery, PagoMovilPayer, PaymentKeyOutcome } from '../../gateways/pago-movil-port.ts';
import { GatewayUnavailableError, type GatewayOutcome } from '../../gateways/payment-gateway.ts';
import type { BdvCredentialSet } from './credentials.ts';
import { annulmentOutcome, movementOutcome, paymentKeyOutcome, processOutcome } from './outcomes.ts';
import { annulmentBody, getMovementBody, paymentKeyBody, processBody } from './requests.ts';
import { API_KEY_HEADER, BDV_PATHS } from './wire.ts';

/**
 * One POST to the bank with its headers, never retried: the connector's registration binds it to bankRequest
 * (shared/gateways/bank-http.ts) with the environment's base URL and deadline.
 */
export type BdvPost = (path: string, body: unknown, headers: Record<string, string>) => Promise<BankReply>;

/** Codes of ours for what BDV never saw. */
export const BDV_CODES = {
  /** The merchant's credentials have no API key for this product family (C2P or conciliation). */
  NO_API_KEY: 'bdv_api_key_missing',
} as const;

export interface C2pDebit {
  transactionReference: string;
  amountMinor: number;
  payer: PagoMovilPayer;
}

/** Errors of the connection whose request never left this machine: the bank cannot have acted on them. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

function neverSent(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (NEVER_SENT.has((cause as { code?: string }).code ?? '')) return true;
  }
  return false;
}

/**
 * How a money-moving call is sent: once. BDV's own variant of Mercantil's send-once rule, because its semantics
 * differ: errors come with HTTP 200 and are judged by `code` alone, and no status read exists, so a doubt cannot be
 * settled by reading. A reply with a code is judged; a 4xx without one was refused before the bank judged it
 * (failed); a timeout, a 5xx, a dropped connection or a body without code leave the outcome unknown.
 */
async function sentOnce(send: () => Promise<BankReply>, outcomeOf: (reply: BankReply) => GatewayOutcome | null): Promise<GatewayOutcome> {
  let reply: BankReply;
  try {
    reply = await send();
  } catch (error) {
    if (!(error instanceof GatewayUnavailableError)) throw error;
    if (neverSent(error)) return { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: error.message };
    return { kind: 'unknown', detail: `${error.message} Banco de Venezuela publishes no status read: the outcome is settled from the merchant's statement.` };
  }
  const outcome = outcomeOf(reply);
  if (outcome) return outcome;
  if (reply.status >= 400 && reply.status < 500) {
    return { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: `Banco de Venezuela refused the call with HTTP ${reply.status} and no code.` };
  }
  return { kind: 'unknown', detail: `Banco de Venezuela answered HTTP ${reply.status} without a code; it publishes no status read.` };
}

const noKey = (family: string): { kind: 'failed'; code: string; detail: string } => ({
  kind: 'failed',
  code: BDV_CODES.NO_API_KEY,
  detail: `The loaded Banco de Venezuela credentials have no ${family} API key for this environment.`,
});

/**
 * @example
 * const bdv = bdvPagoMovil((path, body, headers) => bankRequest({ connector: 'bdv', method: 'POST', url: base + path, body, headers, timeoutMs }), set);
 * await bdv.purchase({ transactionReference, amountMinor: 200, payer }, '63216413');
 */
export function bdvPagoMovil(post: BdvPost, credentials: BdvCredentialSet) {
  const { c2pApiKey, conciliationApiKey, affiliatedPhone } = credentials;
  const c2p = (path: string, body: unknown) => post(path, body, { [API_KEY_HEADER]: c2pApiKey! });

  return {
    /** A C2P debit with the payer's key; its processorReference is the endToEndId an annulment needs. */
    purchase: async (debit: C2pDebit, key: string): Promise<GatewayOutcome> =>
      c2pApiKey ? sentOnce(() => c2p(BDV_PATHS.process, processBody({ ...debit, key, affiliatedPhone })), processOutcome) : noKey('C2P'),
    /**
     * The bank's record of a debit: BDV publishes no status read for C2P, so this always throws
     * GatewayUnavailableError and a debit whose answer was lost stays pending (docs/bdv.md).
     */
    purchaseStatus: async (): Promise<never> => {
      throw new GatewayUnavailableError('Banco de Venezuela publishes no status read of a C2P debit: settle it from the merchant statement (concept "Pago <transaction reference>").');
    },
    /** A debit reversed whole by its endToEndId (annulment); the referencia goes along for an interbank payer. */
    annul: async (endToEndId: string, payer: Pick<PagoMovilPayer, 'bankCode'>): Promise<GatewayOutcome> =>
      c2pApiKey ? sentOnce(() => c2p(BDV_PATHS.annulment, annulmentBody(endToEndId, payer.bankCode)), (reply) => annulmentOutcome(reply, endToEndId)) : noKey('C2P'),
    /** Asks the payer's bank to send them a key by SMS: moves no money, but each call is an SMS, so it is not repeated. */
    sendKey: async (payer: PagoMovilPayer): Promise<PaymentKeyOutcome> => {
      if (!c2pApiKey) return noKey('C2P');
      try {
        return paymentKeyOutcome(await c2p(BDV_PATHS.paymentKey, paymentKeyBody(payer)));
      } catch (error) {
        if (!(error instanceof GatewayUnavailableError)) throw error;
        return { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: error.message };
      }
    },
    /**
     * Verifies a P2C payment. Never retried: the bank conciliates a payment it finds and answers "ya fue conciliado"
     * to any repeat, so a retry after a lost answer would read a payment as claimed by someone else.
     */
    findIncoming: async (query: IncomingPaymentQuery): Promise<IncomingPaymentOutcome> => {
      if (!conciliationApiKey) return noKey('conciliation');
      try {
        return movementOutcome(await post(BDV_PATHS.getMovement, getMovementBody(query, affiliatedPhone), { [API_KEY_HEADER]: conciliationApiKey }), query.reference);
      } catch (error) {
        if (!(error instanceof GatewayUnavailableError)) throw error;
        return { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: error.message };
      }
    },
  };
}
