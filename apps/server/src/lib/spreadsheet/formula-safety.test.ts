import { describe, expect, it } from 'vitest';
import { neutraliseFormula } from './formula-safety.ts';

describe('neutraliseFormula', () => {
  it('prefixes an apostrophe to text starting with =, +, -, @, tab or carriage return', () => {
    for (const value of ['=1+1', '+41 22 123 45 67', '-2+3', '@SUM(A1:A9)', '\t=cmd', '\r=cmd']) {
      expect(neutraliseFormula(value)).toBe(`'${value}`);
    }
  });

  it('leaves other text, and values that are not text, as they are', () => {
    for (const value of ['Zoé', '1+1', ' =1', "'=already", '', 42, -3, null, undefined, true]) {
      expect(neutraliseFormula(value)).toBe(value);
    }
  });
});
