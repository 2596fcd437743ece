import { describe, expect, it } from 'vitest';
import { frenchDay } from '../../lib/french-date.ts';
import { formatRate, importResultText, parseRate } from './exchange-rate-format.ts';

describe('parseRate', () => {
  it.each([
    ['0,9412', 0.9412],
    ['0.9412', 0.9412],
    ['162,93', 162.93],
    ['17 055,48', 17055.48],
    ['17\u202f055,48', 17055.48],
    ["17'055.48", 17055.48],
    ['1.234,5', 1234.5],
    ['1.234.567', 1234567],
    ['1,12345678', 1.12345678],
    [' 7 ', 7],
  ])('reads %s as %s', (text, rate) => {
    expect(parseRate(text)).toBe(rate);
  });

  it.each(['', 'abc', '-1', '1,2,3', '1.2.3', '1e5', ',', '0x10'])('reads %j as no rate', (text) => {
    expect(parseRate(text)).toBeNull();
  });
});

describe('formats', () => {
  it('writes rates, days and import results the French way', () => {
    expect(formatRate(0.9412)).toBe('0,9412');
    expect(formatRate(17055.48).replace(/\s/g, ' ')).toBe('17 055,48');
    expect(formatRate(0.855153)).toBe('0,855153');
    expect(frenchDay('2024-03-01')).toBe('01/03/2024');
    expect(importResultText({ imported: 1, skipped: 0 })).toBe('1 rate imported, 0 skipped');
    expect(importResultText({ imported: 1234, skipped: 5 }).replace(/\s/g, ' ')).toBe(
      '1 234 rates imported, 5 skipped',
    );
  });
});
