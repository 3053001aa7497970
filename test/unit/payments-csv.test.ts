import { describe, expect, it } from 'vitest';
import { caracasTime, csvCell, csvLine, decimalAmount } from '../../shared/domain/payments-csv.ts';

describe('the payments CSV', () => {
  it('quotes cells with commas, quotes or line breaks, doubling the quotes', () => {
    expect(csvLine(['a,b', 'say "hi"', 'two\nlines', 'plain', 42, null])).toBe('"a,b","say ""hi""","two\nlines",plain,42,\r\n');
  });

  it.each([
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['+1+1', "'+1+1"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
  ])('neutralises a text cell a spreadsheet would run as a formula: %s', (text, cell) => {
    expect(csvCell(text)).toBe(cell);
  });

  it('leaves numbers and ordinary text as they are', () => {
    expect(csvCell(125050)).toBe('125050');
    expect(csvCell('cust-1')).toBe('cust-1');
  });

  it('writes minor units as a decimal with a point, and the time in Caracas with its offset', () => {
    expect(decimalAmount(125050)).toBe('1250.50');
    expect(decimalAmount(5)).toBe('0.05');
    expect(caracasTime('2026-03-10T02:30:05.123Z')).toBe('2026-03-09 22:30:05 -04:00');
  });
});
