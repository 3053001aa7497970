import { describe, expect, it } from 'vitest';
import { formatMoney, formatMoneyShort } from '../../shared/domain/money-format.ts';

describe('formatMoney', () => {
  it("writes Venezuelan Spanish amounts with today's symbols: Bs. and US$, a space, the locale's separators", () => {
    expect(formatMoney(125050, 'VES', 'es-VE')).toBe('Bs. 1.250,50');
    expect(formatMoney(5, 'VES', 'es-VE')).toBe('Bs. 0,05');
    expect(formatMoney(1050, 'USD', 'es-VE')).toBe('US$ 10,50');
  });

  it('writes English amounts with English separators, and a bare $ against the number', () => {
    expect(formatMoney(125050, 'VES', 'en-US')).toBe('Bs. 1,250.50');
    expect(formatMoney(1050, 'USD', 'en-US')).toBe('$10.50');
    expect(formatMoney(1050, 'USD', 'en-GB')).toBe('$10.50');
  });

  it("abbreviates a chart axis's amounts without decimals, with the same symbols", () => {
    expect(formatMoneyShort(1_200_000, 'VES', 'en-US')).toBe('Bs. 12K');
    expect(formatMoneyShort(1_999, 'USD', 'en-US')).toBe('$20');
    expect(formatMoneyShort(1_999, 'USD', 'es-VE')).toBe('US$ 20');
  });
});
