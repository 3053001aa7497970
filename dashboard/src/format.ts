/**
 * Rates, dates and typed amounts as the user reads them, in the user's locale. Amounts shown are formatted by
 * shared/domain/money-format.ts (the checkout's formatter too), given locale().
 */
import { language, locale } from './i18n.ts';

export function formatRate(rate: number | null): string {
  if (rate === null) return '—';
  return new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 1 }).format(rate);
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return unbrokenDateAndTime(new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }), new Date(iso));
}

/** Short date and time for a list's column: 23/11/26, 9:34 p. m. */
export function formatShortDateTime(iso: string): string {
  return unbrokenDateAndTime(new Intl.DateTimeFormat(locale(), { dateStyle: 'short', timeStyle: 'short' }), new Date(iso));
}

/**
 * A date and time that a narrow column breaks only between the two: Intl writes "6:26 p. m." with plain spaces, and
 * a phone's table cell wrapped it as "6:26 p." / "m.". Every space but the one after the date's comma is made
 * non-breaking.
 */
function unbrokenDateAndTime(format: Intl.DateTimeFormat, date: Date): string {
  const parts = format.formatToParts(date);
  return parts.map((part, i) => (part.type === 'literal' && parts[i + 1]?.type === 'hour' ? part.value : part.value.replace(/\s/g, '\u00a0'))).join('');
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

