import type { Product } from '@back-office/contract/products';
import { computeSaleTotals } from '@back-office/contract/sale-totals';
import { describe, expect, it } from 'vitest';
import {
  addSaleLine,
  canAddLine,
  formFieldOfPayloadPath,
  freeLine,
  isSwissSymbol,
  newSaleLine,
  newSaleTotals,
} from './new-sale-model.ts';

const agenda: Product = {
  id: 1,
  name: 'Agenda',
  euroPrice: 12.5,
  swissPrice: 14,
  active: true,
  currentStock: 3,
  minStockAlert: 1,
  version: 1,
};

describe('new sale model (part 2 §2.6, §4, §9)', () => {
  it('takes every figure from computeSaleTotals, with the price of the active currency', () => {
    const lines = [newSaleLine(agenda, 3), freeLine(newSaleLine(agenda, 2))];
    const figures = { discountPercentage: 33.333, donation: 2, deliveryCharge: '' as const };
    expect(newSaleTotals({ lines, swissSale: false, ...figures })).toEqual(
      computeSaleTotals({
        lines: [
          { quantity: 3, unitPrice: 12.5 },
          { quantity: 2, unitPrice: 0 },
        ],
        discountPercentage: 33.333,
        donation: 2,
        deliveryCharge: 0,
      }),
    );
    expect(newSaleTotals({ lines, swissSale: true, ...figures }).subTotal).toBe(42);
  });

  it('knows a Swiss currency by chf in its symbol, whatever the case', () => {
    expect(isSwissSymbol('CHF')).toBe(true);
    expect(isSwissSymbol('chf.')).toBe(true);
    expect(isSwissSymbol('€')).toBe(false);
    expect(isSwissSymbol('')).toBe(false);
  });

  it('adds a line only with a product and a non-zero quantity', () => {
    expect(canAddLine(null, 2)).toBe(false);
    expect(canAddLine('1', 0)).toBe(false);
    expect(canAddLine('1', '')).toBe(false);
    expect(canAddLine('1', 2)).toBe(true);
  });

  it('shows the errors of the payload under the form fields', () => {
    expect(formFieldOfPayloadPath('items.2.quantity')).toBe('lines.2.quantity');
    expect(formFieldOfPayloadPath('items')).toBe('lines');
    expect(formFieldOfPayloadPath('paymentTermDays')).toBe('paymentTerms');
    expect(formFieldOfPayloadPath('subscriberId')).toBeNull();
  });

  it('adds the same product twice as one line with the quantities added up', () => {
    const once = addSaleLine([], agenda, 2);
    const twice = addSaleLine(once, agenda, 3);
    expect(twice).toHaveLength(1);
    expect(twice[0]).toMatchObject({ key: once[0]?.key, productId: agenda.id, quantity: 5 });
    const diary: Product = { ...agenda, id: 2, name: 'Diary' };
    expect(addSaleLine(twice, diary, 1).map((line) => line.productName)).toEqual(['Agenda', 'Diary']);
  });

  it('keeps a line made Free apart from the same product added again at its price', () => {
    const lines = addSaleLine([freeLine(newSaleLine(agenda, 1))], agenda, 2);
    expect(lines.map((line) => [line.euroUnitPrice, line.quantity])).toEqual([
      [0, 1],
      [12.5, 2],
    ]);
  });
});
