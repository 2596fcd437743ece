import { describe, expect, it } from 'vitest';
import { parseFrenchDate } from './french-date.ts';

describe('parseFrenchDate', () => {
  it('reads dd/mm/yyyy day first, with or without leading zeros', () => {
    expect(parseFrenchDate('25/12/2025')).toBe('2025-12-25');
    expect(parseFrenchDate('5/1/2026')).toBe('2026-01-05');
    expect(parseFrenchDate(' 05/01/2026 ')).toBe('2026-01-05');
  });

  it('takes dots, dashes or spaces between the parts, and the wire format as it is', () => {
    expect(parseFrenchDate('05.01.2026')).toBe('2026-01-05');
    expect(parseFrenchDate('05-01-2026')).toBe('2026-01-05');
    expect(parseFrenchDate('05 01 2026')).toBe('2026-01-05');
    expect(parseFrenchDate('2026-01-05')).toBe('2026-01-05');
  });

  it('refuses days that do not exist and half-typed dates', () => {
    expect(parseFrenchDate('31/02/2026')).toBeNull();
    expect(parseFrenchDate('29/02/2025')).toBeNull();
    expect(parseFrenchDate('29/02/2024')).toBe('2024-02-29');
    expect(parseFrenchDate('13/13/2026')).toBeNull();
    expect(parseFrenchDate('05/01/26')).toBeNull();
    expect(parseFrenchDate('05/01')).toBeNull();
    expect(parseFrenchDate('')).toBeNull();
    expect(parseFrenchDate('demain')).toBeNull();
  });
});
