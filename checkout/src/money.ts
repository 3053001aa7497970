/**
 * Amounts as a Venezuelan buyer reads them: es-VE separators, the currency's decimals, and today's symbols.
 * The browsers' locale data still names the bolívar `Bs.S` (the 2018-2021 bolívar soberano) or `VES`; since the
 * 2021 redenomination the bolívar is written `Bs.`, so the symbol is set here rather than left to the browser.
 */
const SYMBOLS: Record<string, string> = { VES: 'Bs.' };

/**
 * @example
 * formatAmount(125050, 'VES') // 'Bs. 1.250,50'
 * formatAmount(1050, 'USD') // 'US$ 10,50' (the symbol as the browser's es-VE data has it)
 */
export function formatAmount(amountMinor: number, currency: string): string {
  const format = new Intl.NumberFormat('es-VE', { style: 'currency', currency });
  const decimals = format.resolvedOptions().maximumFractionDigits ?? 2;
  const symbol = SYMBOLS[currency];
  return format
    .formatToParts(amountMinor / 10 ** decimals)
    .map((part) => (part.type === 'currency' && symbol ? symbol : part.value))
    .join('');
}
