import { describe, expect, it } from 'vitest';
import { formatFrenchDateTime, formatNumber } from './format.ts';

describe('format', () => {
  it('writes a timestamp day first, in local time', () => {
    expect(formatFrenchDateTime(new Date(2026, 2, 7, 14, 5))).toBe('07/03/2026 14:05');
    expect(formatFrenchDateTime('not a date')).toBe('');
  });

  it('groups thousands the French way', () => {
    expect(formatNumber(1234567)).toMatch(/^1\s234\s567$/);
  });
});
