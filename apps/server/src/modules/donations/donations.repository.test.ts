import { describe, expect, it } from 'vitest';
import { EXACT_COUNT_LIMIT } from '../../lib/search-count.ts';
import { giftsOfANameSorted } from './donations.repository.ts';

describe('giftsOfANameSorted', () => {
  it('collects more of a name’s gifts the sparser they are along the dates', () => {
    expect(giftsOfANameSorted(5_000_000)).toEqual({ whenExpected: 27_386, limit: 36_515 });
    expect(giftsOfANameSorted(1_000_000)).toEqual({ whenExpected: 12_247, limit: 16_329 });
  });

  it('never collects fewer than the count’s exact limit, nor fewer when the table was never analysed', () => {
    for (const allGifts of [0, -1, 20_050, 600_000]) {
      expect(giftsOfANameSorted(allGifts).whenExpected).toBe(EXACT_COUNT_LIMIT);
      expect(giftsOfANameSorted(allGifts).limit).toBeGreaterThan(EXACT_COUNT_LIMIT);
    }
  });
});
