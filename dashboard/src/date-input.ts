/**
 * A day typed in the order of the page's language (dd/mm/aaaa in Spanish, mm/dd/yyyy in American English), kept as
 * YYYY-MM-DD in a hidden input of the same name for the form. Chromium draws <input type="date"> in the browser's
 * own locale whatever the page's lang says, so a Spanish page in an English browser showed mm/dd/yyyy.
 */
import { h } from './dom.ts';
import { locale, t } from './i18n.ts';
import { field } from './ui.ts';

type DayPart = 'day' | 'month' | 'year';

/** The order of day, month and year in the locale's numeric date, and what separates them. */
function dateOrder(): { order: DayPart[]; separator: string } {
  const parts = new Intl.DateTimeFormat(locale(), { day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(new Date(2026, 10, 23));
  const order = parts.filter((p): p is Intl.DateTimeFormatPart & { type: DayPart } => p.type === 'day' || p.type === 'month' || p.type === 'year').map((p) => p.type);
  return { order, separator: parts.find((p) => p.type === 'literal')?.value ?? '/' };
}

/** YYYY-MM-DD of a typed day (any non-digit separates its numbers), or null when it is no day of the calendar. */
function parseDay(text: string, order: DayPart[]): string | null {
  const numbers = text.trim().split(/\D+/).filter(Boolean);
  if (numbers.length !== 3) return null;
  const value = Object.fromEntries(order.map((part, i) => [part, numbers[i]!])) as Record<DayPart, string>;
  if (value.year.length !== 4 || value.day.length > 2 || value.month.length > 2) return null;
  const [year, month, day] = [Number(value.year), Number(value.month), Number(value.day)];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${value.year}-${value.month.padStart(2, '0')}-${value.day.padStart(2, '0')}`;
}

/** A labelled day field named `name` (its value YYYY-MM-DD, or empty), shown and typed as the page's language writes dates. */
export function dayField(label: string, name: string, isoDay: string | null): HTMLDivElement {
  const { order, separator } = dateOrder();
  const letters = t().common.dateLetters;
  const pattern = order.map((part) => letters[part]).join(separator);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay ?? '');
  const shown = day ? order.map((part) => ({ year: day[1], month: day[2], day: day[3] })[part]).join(separator) : '';
  const value = h('input', { type: 'hidden', name, value: day ? isoDay! : '' });
  const input = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', placeholder: pattern, maxlength: 10, value: shown });
  input.addEventListener('input', () => {
    const parsed = parseDay(input.value, order);
    value.value = parsed ?? '';
    input.setCustomValidity(input.value.trim() && !parsed ? t().common.dateInvalid(pattern) : '');
  });
  const wrapper = field(label, input, t().common.dateFormat(pattern));
  wrapper.append(value);
  return wrapper;
}
