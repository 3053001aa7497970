/**
 * What the API names by id, as people read it: card brands as printed on the card (and as the checkout shows them),
 * gateways by the names in the dictionary, and a payment's status by whose it is (a session's or a charge's).
 *
 * @example
 * cardLabel('visa', '1111') // 'Visa •••• 1111'
 * gatewayName('bank_direct') // 'Banco (conexión directa)'
 */
import { t } from './i18n.ts';

/** Brand names do not change with the language. */
const BRANDS: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', maestro: 'Maestro', amex: 'American Express' };

export const brandName = (brand: string | null | undefined): string => (brand && brand !== 'unknown' ? (BRANDS[brand] ?? brand) : '');

export const cardLabel = (brand: string | null | undefined, lastFour: string): string => `${brandName(brand)} •••• ${lastFour}`.trim();

/** A gateway's name; an id `<connector>_…` not listed takes its connector's name; other unknown ids as they are. */
export function gatewayName(gateway: string): string {
  const names = t().gateways;
  return names[gateway] ?? names[gateway.split('_')[0]!] ?? gateway;
}

/** A session's state or a charge's: the same id can mean different things (a session "failed" can still be paid). */
export function paymentStatusLabel(kind: 'session' | 'charge', status: string): string {
  return (kind === 'session' ? t().sessionStatuses[status] : undefined) ?? t().statuses[status] ?? status;
}
