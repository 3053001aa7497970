/**
 * Amounts as people read them, in the checkout (always es-VE) and the dashboard (the user's locale). Amounts are
 * integers in minor units (both currencies have two decimals). The symbol is the one Venezuelan merchants use:
 * `Bs.` for VES, `US$` for USD in Spanish and `$` in English. It is set here rather than left to the browser because
 * the browsers' locale data still names the bolívar `Bs.S` (the 2018-2021 bolívar soberano) or `VES`; since the 2021
 * redenomination it is written `Bs.`. The separators are the locale's. No imports: both page bundles use it.
 *
 * @example
 * formatMoney(125050, 'VES', 'es-VE') // 'Bs. 1.250,50'
 * formatMoney(125050, 'VES', 'en-US') // 'Bs. 1,250.50'
 * formatMoney(1050, 'USD', 'es-VE') // 'US$ 10,50'
 * formatMoney(1050, 'USD', 'en-US') // '$10.50'
 * formatMoneyShort(1_200_000, 'VES', 'en-US') // 'Bs. 12K'
 */

const DECIMALS: Record<string, number> = { VES: 2, USD: 2 };

const decimalsOf = (currency: string): number => DECIMALS[currency] ?? 2;

function currencySymbol(currency: string, locale: string): string {
  if (currency === 'VES') return 'Bs.';
  if (currency === 'USD') return /^es\b/i.test(locale) ? 'US$' : '$';
  return currency;
}

/** "US$ 12,50" and "Bs. 12,50" read with a space; a bare "$" sits against the number as English writes it. */
function withSymbol(number: string, currency: string, locale: string): string {
  const symbol = currencySymbol(currency, locale);
  return symbol === '$' ? `$${number}` : `${symbol} ${number}`;
}

export function formatMoney(amountMinor: number, currency: string, locale: string): string {
  const decimals = decimalsOf(currency);
  const number = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(amountMinor / 10 ** decimals);
  return withSymbol(number, currency, locale);
}

/** A compact amount for a chart's axis: no decimals, thousands abbreviated by the locale (Bs. 12K in English). */
export function formatMoneyShort(amountMinor: number, currency: string, locale: string): string {
  const number = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(amountMinor / 10 ** decimalsOf(currency));
  return withSymbol(number, currency, locale);
}
