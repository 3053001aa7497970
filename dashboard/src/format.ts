/**
 * Money and dates as the user reads them. Amounts are integers in minor units (both currencies have two decimals);
 * the symbol is the one Venezuelan merchants use (Bs. for VES; US$ in Spanish, $ in English), the separators the
 * user's locale's.
 *
 * @example
 * formatMoney(125050, 'VES') // 'Bs. 1.250,50' in es-VE; 'Bs. 1,250.50' in en-US
 */
import { language, locale } from './i18n.ts';

const DECIMALS: Record<string, number> = { VES: 2, USD: 2 };

export function currencySymbol(currency: string): string {
  if (currency === 'VES') return 'Bs.';
  if (currency === 'USD') return language() === 'es' ? 'US$' : '$';
  return currency;
}

export function formatMoney(amountMinor: number, currency: string): string {
  const decimals = DECIMALS[currency] ?? 2;
  const number = new Intl.NumberFormat(locale(), { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(amountMinor / 10 ** decimals);
  const symbol = currencySymbol(currency);
  // "US$ 12,50" and "Bs. 12,50" read with a space; a bare "$" sits against the number as English writes it.
  return symbol === '$' ? `$${number}` : `${symbol} ${number}`;
}

/** A compact amount for a chart's axis: no decimals, thousands abbreviated by the locale (Bs. 12 mil). */
export function formatMoneyShort(amountMinor: number, currency: string): string {
  const number = new Intl.NumberFormat(locale(), { notation: 'compact', maximumFractionDigits: 1 }).format(amountMinor / 10 ** (DECIMALS[currency] ?? 2));
  const symbol = currencySymbol(currency);
  return symbol === '$' ? `$${number}` : `${symbol} ${number}`;
}

export function formatRate(rate: number | null): string {
  if (rate === null) return '—';
  return new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 1 }).format(rate);
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** Short date and time for a list's column: 23/11/26, 9:34 p. m. */
export function formatShortDateTime(iso: string): string {
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  // A bare YYYY-MM-DD is a calendar day, not midnight UTC: shown as that day everywhere.
  const date = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T12:00:00`) : new Date(iso);
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium' }).format(date);
}

/** Day and month only, for a chart's axis. */
export function formatDayMonth(day: string): string {
  return new Intl.DateTimeFormat(locale(), { day: 'numeric', month: 'short' }).format(new Date(`${day}T12:00:00`));
}

/**
 * An amount as a merchant types it in a search (VES and USD both have 2 decimals): "25", "25,5" or "25.50" is 2550
 * minor units. Null for anything else, thousands separators included ("1.250" is refused, not read as 1.25).
 */
export function parseAmountInput(text: string): number | null {
  const match = /^(\d{1,10})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : null;
}

/** Minor units back as the search field shows them, with the user's decimal separator: 2550 is "25,50" in Spanish. */
export function amountInputValue(amountMinor: number): string {
  const [units, cents] = [Math.floor(amountMinor / 100), String(amountMinor % 100).padStart(2, '0')];
  return `${units}${language() === 'es' ? ',' : '.'}${cents}`;
}

