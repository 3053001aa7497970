/**
 * Amounts as a Venezuelan buyer reads them: es-VE separators and the currency's own symbol and decimals.
 *
 * @example
 * formatAmount(105050, 'VES') // 'Bs.S 1.050,50' (the symbol is whatever the browser's locale data says)
 */
export function formatAmount(amountMinor: number, currency: string): string {
  const format = new Intl.NumberFormat('es-VE', { style: 'currency', currency });
  const decimals = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amountMinor / 10 ** decimals);
}
