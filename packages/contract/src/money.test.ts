import { describe, expect, it } from 'vitest';
import { parseAmount, toCents } from './money.ts';

describe('parseAmount', () => {
  it('reads the decimal comma: 1,5 is 1.50, never 15', () => {
    expect(parseAmount('1,5')).toBe(1.5);
    expect(parseAmount('1,50')).toBe(1.5);
    expect(parseAmount('0,05')).toBe(0.05);
    expect(parseAmount(',5')).toBe(0.5);
    expect(parseAmount('12')).toBe(12);
  });

  it('reads French thousands with a space, a no-break or a narrow no-break space', () => {
    expect(parseAmount('1 234,56')).toBe(1234.56);
    expect(parseAmount('1\u00a0234,56')).toBe(1234.56);
    expect(parseAmount('1\u202f234\u202f567,8')).toBe(1234567.8);
    expect(parseAmount('  12,30  ')).toBe(12.3);
  });

  it('reads dots as thousands before a comma or between groups of three, else as the decimal point', () => {
    expect(parseAmount('1.234,56')).toBe(1234.56);
    expect(parseAmount('1.234')).toBe(1234);
    expect(parseAmount('1.234.567')).toBe(1234567);
    expect(parseAmount('1.5')).toBe(1.5);
    expect(parseAmount('12.25')).toBe(12.25);
    expect(parseAmount("1'234.50")).toBe(1234.5);
  });

  it('takes a separator at the end while the decimals are being typed', () => {
    expect(parseAmount('12,')).toBe(12);
    expect(parseAmount('12.')).toBe(12);
  });

  it('refuses negatives unless asked, and then reads them', () => {
    expect(parseAmount('-5')).toBeNull();
    expect(parseAmount('-1,5')).toBeNull();
    expect(parseAmount('-1,5', { allowNegative: true })).toBe(-1.5);
    expect(parseAmount('-1 234,56', { allowNegative: true })).toBe(-1234.56);
    expect(parseAmount('-0', { allowNegative: true })).toBe(0);
  });

  it('refuses a third decimal, two commas, letters, an empty text and amounts past numeric(12,2)', () => {
    expect(parseAmount('7,125')).toBeNull();
    expect(parseAmount('1,2,3')).toBeNull();
    expect(parseAmount('1,234.5')).toBeNull();
    expect(parseAmount('12 €')).toBeNull();
    expect(parseAmount('abc')).toBeNull();
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('-', { allowNegative: true })).toBeNull();
    expect(parseAmount(',')).toBeNull();
    expect(parseAmount('9999999999,99')).toBe(9999999999.99);
    expect(parseAmount('10000000000')).toBeNull();
  });
});

describe('toCents', () => {
  it('turns stored amounts and numbers into exact cents', () => {
    expect(toCents('1234.56')).toBe(123456);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(19.99)).toBe(1999);
    expect(toCents('-5.10')).toBe(-510);
  });
});
