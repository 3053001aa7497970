/**
 * The receipt of an approved payment: whom the buyer paid, how much, with which card (or by pago móvil, from which
 * bank and phone), when, and the references to quote to the merchant or the bank. It prints on its own (styles.css,
 * @media print). Card data beyond the brand and last four never reaches the page; the phone comes masked.
 */
import { formatMoney } from '../../shared/domain/money-format.ts';
import type { CheckoutSession, ChargeResult } from './checkout-api.ts';
import { brandLabel } from './card-input.ts';
import { byId, show } from './dom.ts';
import { AMOUNT_LOCALE, FUNDING_LABELS, PAGO_MOVIL_LABEL, storedCardLabel } from './messages.ts';

type ReceiptTransaction = ChargeResult['transaction'];

/** Date and time in the buyer's own Spanish locale and time zone, the zone named, so a printed receipt is unambiguous. */
export function formatPaidAt(iso: string): string {
  const spanish = navigator.languages.find((language) => /^es\b/i.test(language)) ?? 'es-VE';
  return new Intl.DateTimeFormat(spanish, { day: 'numeric', month: 'long', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(new Date(iso));
}

export function renderReceipt(transaction: ReceiptTransaction, session: Pick<CheckoutSession, 'description' | 'test' | 'simulated'>, businessName: string): void {
  byId('receipt-merchant').textContent = businessName;
  byId('receipt-amount').textContent = formatMoney(transaction.amountMinor, transaction.currency, AMOUNT_LOCALE);
  const description = session.description ?? '';
  byId('receipt-description').textContent = description;
  show(byId('receipt-description-row'), Boolean(description));
  // Pago móvil: the method, the payer's bank and their phone masked as the service sends it to the buyer.
  const pagoMovil = transaction.paymentMethod.type === 'card' ? null : transaction.paymentMethod.pagoMovil;
  byId('receipt-method').textContent = pagoMovil ? PAGO_MOVIL_LABEL : '';
  show(byId('receipt-method-row'), Boolean(pagoMovil));
  byId('receipt-bank').textContent = pagoMovil ? `${pagoMovil.bankName} (${pagoMovil.bankCode})` : '';
  show(byId('receipt-bank-row'), Boolean(pagoMovil));
  byId('receipt-phone').textContent = pagoMovil?.phone ?? '';
  show(byId('receipt-phone-row'), Boolean(pagoMovil));
  const card = transaction.card;
  byId('receipt-card').textContent = card ? storedCardLabel(brandLabel(card.brand) || 'Tarjeta', card.lastFour) : '';
  show(byId('receipt-card-row'), Boolean(card));
  // Only what the brand or the network told: no row rather than a guess (no source names the issuing bank).
  const funding = card?.funding ? FUNDING_LABELS[card.funding] : '';
  byId('receipt-funding').textContent = funding;
  show(byId('receipt-funding-row'), Boolean(funding));
  const paidAt = byId<HTMLTimeElement>('receipt-date');
  paidAt.dateTime = transaction.createdAt;
  paidAt.textContent = formatPaidAt(transaction.createdAt);
  byId('receipt-reference').textContent = transaction.reference;
  // What the buyer can quote to their bank: the issuer's authorization code (Stripe), the bank's reference (Mercantil).
  byId('receipt-authorization').textContent = transaction.authorizationCode ?? '';
  show(byId('receipt-authorization-row'), Boolean(transaction.authorizationCode));
  byId('receipt-bank-reference').textContent = transaction.processorReference ?? '';
  show(byId('receipt-bank-reference-row'), Boolean(transaction.processorReference));
  // A receipt printed in the sandbox must not pass for a real one, live mode included.
  show(byId('receipt-test'), session.test || session.simulated);
}
