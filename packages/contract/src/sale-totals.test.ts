import { describe, expect, it } from 'vitest';
import { computeSaleTotals, computeSaleTotalsInCents } from './sale-totals.ts';

const sale = (lines: Array<[number, number]>, discountPercentage = 0, donation = 0, deliveryCharge = 0) => ({
  lines: lines.map(([quantity, unitPrice]) => ({ quantity, unitPrice })),
  discountPercentage,
  donation,
  deliveryCharge,
});

describe('computeSaleTotalsInCents (part 2 §9)', () => {
  it.each([
    ['one line', sale([[2, 12.5]]), { subTotal: 2500, discount: 0, total: 2500 }],
    [
      '3 × 0.335 rounds half up to 1.01',
      sale([[3, 0.335]]),
      { lineTotals: [101], subTotal: 101, total: 101 },
    ],
    ['1.005 rounds to 1.01 (not 1.00)', sale([[1, 1.005]]), { subTotal: 101 }],
    [
      '0.1 + 0.2 is exactly 0.30',
      sale([
        [1, 0.1],
        [1, 0.2],
      ]),
      { subTotal: 30, total: 30 },
    ],
    [
      'each line rounded before summing',
      sale([
        [1, 0.005],
        [1, 0.005],
      ]),
      { lineTotals: [1, 1], subTotal: 2 },
    ],
    ['33.333 % of 10.00 is 3.33', sale([[1, 10]], 33.333), { discount: 333, total: 667 }],
    ['33.335 % of 10.00 rounds to 3.33 (3.3335)', sale([[1, 10]], 33.335), { discount: 333 }],
    ['12.5 % of 0.20 is 0.025 -> 0.03', sale([[1, 0.2]], 12.5), { discount: 3, total: 17 }],
    ['100 % discount', sale([[4, 9.99]], 100), { subTotal: 3996, discount: 3996, total: 0 }],
    [
      'donation and delivery are added',
      sale([[1, 10]], 10, 5.5, 4.9),
      { discount: 100, donation: 550, deliveryCharge: 490, total: 1940 },
    ],
    [
      'free line',
      sale([
        [3, 0],
        [1, 7.25],
      ]),
      { lineTotals: [0, 725], total: 725 },
    ],
    ['large amounts stay exact', sale([[1000, 9_999_999.99]]), { subTotal: 999_999_999_000 }],
  ])('%s', (_name, input, expected) => {
    expect(computeSaleTotalsInCents(input)).toMatchObject(expected);
  });

  it('gives units for display', () => {
    expect(computeSaleTotals(sale([[3, 0.335]], 0, 1, 2))).toMatchObject({ subTotal: 1.01, total: 4.01 });
  });
});
