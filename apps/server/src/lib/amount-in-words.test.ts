import { describe, expect, it } from 'vitest';
import { amountInFrenchWords } from './amount-in-words.ts';

describe('amountInFrenchWords', () => {
  it.each([
    [125.5, 'EUR', 'cent vingt-cinq euros et cinquante centimes'],
    [1, 'EUR', 'un euro'],
    [80, 'EUR', 'quatre-vingts euros'],
    [2000.01, 'EUR', 'deux mille euros et un centime'],
    [125.5, 'CHF', 'cent vingt-cinq francs suisses et cinquante centimes'],
    [1, 'CHF', 'un franc suisse'],
    [0.05, 'CHF', 'cinq centimes'],
    [71.1, 'CHF', 'soixante et onze francs suisses et dix centimes'],
  ] as const)('%s %s -> %s', (units, currency, words) => {
    expect(amountInFrenchWords(units, currency)).toBe(words);
  });
});
