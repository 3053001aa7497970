/**
 * How a buyer pays, as the model, the API and the events name it: a card, or pago móvil in one of its two ways. C2P
 * (comercio a persona): the merchant debits the buyer's account with the payment key the buyer's bank sent them. P2C
 * (persona a comercio): the buyer pays from their bank's app and gives the reference, which the service verifies.
 * Pure: no I/O.
 */
import type { Currency, GatewayId, Merchant } from './merchant.ts';
import { maskedPhone, VENEZUELAN_BANKS, type BankCode } from './pago-movil.ts';

export const PAYMENT_METHOD_TYPES = ['card', 'pago_movil_c2p', 'pago_movil_p2c'] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

export const PAGO_MOVIL_METHODS = ['pago_movil_c2p', 'pago_movil_p2c'] as const;
export type PagoMovilMethod = (typeof PAGO_MOVIL_METHODS)[number];

export const isPagoMovil = (method: PaymentMethodType): method is PagoMovilMethod => method !== 'card';

/**
 * What a pago móvil transaction keeps of its payment. The merchant reads it whole (the transaction detail); everyone
 * else (events, the checkout, lists) reads the phone masked to its last four digits. The payment key is never kept.
 */
export interface PagoMovilPayment {
  bankCode: BankCode;
  /** National form, 04141234567. */
  phone: string;
  /** P2C: the reference the buyer gave and the Caracas day they paid. C2P: the bank's reference is processorReference. */
  reference?: string;
  paidOn?: string;
  /** P2C: what the bank says was received, when it differs from the amount asked. */
  amountReceivedMinor?: number;
}

/** A transaction's method as answers and events show it, after Stripe's payment_method_details. */
export type PaymentMethodDetails =
  | { type: 'card' }
  | {
      type: PagoMovilMethod;
      pagoMovil: { bankCode: BankCode; bankName: string; phone: string; reference: string | null; amountReceivedMinor: number | null };
    };

/**
 * @example
 * methodDetails('pago_movil_p2c', { bankCode: '0105', phone: '04141234567', reference: '84840003380' }, null)
 * // { type: 'pago_movil_p2c', pagoMovil: { bankCode: '0105', bankName: 'Mercantil', phone: '*******4567', reference: '84840003380', amountReceivedMinor: null } }
 */
export function methodDetails(method: PaymentMethodType | undefined, payment: PagoMovilPayment | undefined, processorReference: string | null): PaymentMethodDetails {
  if (!method || method === 'card' || !payment) return { type: 'card' };
  return {
    type: method,
    pagoMovil: {
      bankCode: payment.bankCode,
      bankName: VENEZUELAN_BANKS[payment.bankCode],
      phone: maskedPhone(payment.phone),
      reference: payment.reference ?? processorReference,
      amountReceivedMinor: payment.amountReceivedMinor ?? null,
    },
  };
}

/** The methods a merchant's networks offer in a currency: cards always, pago móvil in VES where it is set up. */
export function offeredMethods(merchant: Pick<Merchant, 'pagoMovil'>, currency: Currency): PaymentMethodType[] {
  const pagoMovil = currency === 'VES' ? PAGO_MOVIL_METHODS.filter((method) => merchant.pagoMovil?.gateways[method]) : [];
  return ['card', ...pagoMovil];
}

/** The gateway that takes a method of a session: the card gateway of its currency, or the pago móvil method's. */
export function methodGateway(merchant: Pick<Merchant, 'gateways' | 'pagoMovil'>, currency: Currency, method: PaymentMethodType): GatewayId | null {
  if (method === 'card') return merchant.gateways[currency];
  return currency === 'VES' ? (merchant.pagoMovil?.gateways[method] ?? null) : null;
}

/**
 * The methods a new session takes: the ones the merchant named, each of which its networks must offer in the
 * session's currency, or every one they offer. A stored card's session takes only the card.
 */
export function sessionMethods(
  offered: PaymentMethodType[],
  requested: PaymentMethodType[] | undefined,
  withStoredCard: boolean,
): { ok: true; methods: PaymentMethodType[] } | { ok: false; message: string } {
  if (withStoredCard) {
    return requested && requested.some((m) => m !== 'card')
      ? { ok: false, message: 'A session with a cardToken is paid with that card: paymentMethods may only be ["card"].' }
      : { ok: true, methods: ['card'] };
  }
  if (!requested) return { ok: true, methods: offered };
  const missing = requested.find((m) => !offered.includes(m));
  if (missing) return { ok: false, message: `Your account does not take ${missing} in this currency. It takes: ${offered.join(', ')}.` };
  return { ok: true, methods: PAYMENT_METHOD_TYPES.filter((m) => requested.includes(m)) };
}
