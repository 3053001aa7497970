/**
 * The bodies of Banco de Venezuela's pago móvil API, field for field as the reference's samples send them (wire.ts):
 * phones in local form (04141234567, the service's own form), documents as letter and digits, bank codes as 4
 * characters, amounts as decimal strings. Nothing is encrypted: the transport is TLS and the X-API-Key header.
 */
import type { IncomingPaymentQuery, PagoMovilPayer } from '../../gateways/pago-movil-port.ts';
import type { AnnulmentRequest, GetMovementRequest, PaymentKeyRequest, ProcessRequest } from './wire.ts';

/** BDV's own bank code: a P2C from a BDV account is verified with the payer's cédula (reqCed). */
export const BDV_BANK_CODE = '0102';

/** The digits of a referencia inside an endToEndId: its last 12 in the reference's only sample. */
const REFERENCIA_DIGITS = 12;

const checkedMinor = (amountMinor: number) => {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) throw new RangeError(`amountMinor must be a whole number of céntimos, not ${amountMinor}`);
  return { units: Math.trunc(amountMinor / 100), cents: amountMinor % 100 };
};

/**
 * Bolívares with two decimals, as getMovement's sample sends its importe.
 *
 * @example
 * twoDecimals(12_000) // '120.00'
 */
export function twoDecimals(amountMinor: number): string {
  const { units, cents } = checkedMinor(amountMinor);
  return `${units}.${String(cents).padStart(2, '0')}`;
}

/**
 * Bolívares as integrators send a C2P amount: a dot and one decimal ("2.0"), the second decimal only when there are
 * céntimos that need it (the sources show no amount with céntimos).
 *
 * @example
 * oneDecimal(200)   // '2.0'
 * oneDecimal(1_235) // '12.35'
 */
export function oneDecimal(amountMinor: number): string {
  const { units, cents } = checkedMinor(amountMinor);
  return cents % 10 === 0 ? `${units}.${cents / 10}` : `${units}.${String(cents).padStart(2, '0')}`;
}

/** The concept as the bank takes it: no accents, at most 100 characters. */
export const concept = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 _.,-]/g, '')
    .slice(0, 100);

const customer = (payer: Pick<PagoMovilPayer, 'phone' | 'document'>): PaymentKeyRequest => ({
  customerDocumentId: `${payer.document.type}${payer.document.id}`,
  customerNumberInstrument: payer.phone,
});

export const paymentKeyBody = (payer: PagoMovilPayer): PaymentKeyRequest => customer(payer);

/**
 * A C2P debit. The concept carries our transaction reference: the bank publishes no status read, so it is how a
 * debit whose answer was lost is found in the merchant's BDV statement (docs/bdv.md).
 */
export function processBody(input: { transactionReference: string; amountMinor: number; payer: PagoMovilPayer; key: string; affiliatedPhone: string }): ProcessRequest {
  return {
    ...customer(input.payer),
    amount: oneDecimal(input.amountMinor),
    customerBankCode: input.payer.bankCode,
    concept: concept(`Pago ${input.transactionReference}`),
    otp: input.key,
    coinType: 'VES',
    operationType: 'CELE',
    commerceNumberInstrument: input.affiliatedPhone,
  };
}

/**
 * The referencia inside an endToEndId: its last 12 characters. Our reading of the one sample
 * (…20241108142701 090037579602, whose answer's referencia is 090037579602), marked as ours in docs/bdv.md.
 */
export const referenciaOf = (endToEndId: string): string => endToEndId.slice(-REFERENCIA_DIGITS);

/** An annulment by the debit's endToEndId; the reference only for an interbank payer, where it is required. */
export const annulmentBody = (endToEndId: string, payerBank: string): AnnulmentRequest => ({
  endToEndId,
  referenceOrigin: payerBank === BDV_BANK_CODE ? '' : referenciaOf(endToEndId),
});

/** A P2C verification: the payer's cédula is compared (reqCed) only BDV to BDV, and only when the payer gave it. */
export function getMovementBody(query: IncomingPaymentQuery, affiliatedPhone: string): GetMovementRequest {
  const document = query.payer.document;
  return {
    cedulaPagador: document ? `${document.type}${document.id}` : '',
    telefonoPagador: query.payer.phone,
    telefonoDestino: affiliatedPhone,
    referencia: query.reference,
    fechaPago: query.paidOn,
    importe: twoDecimals(query.amountMinor),
    bancoOrigen: query.payer.bankCode,
    reqCed: query.payer.bankCode === BDV_BANK_CODE && document !== undefined,
  };
}
