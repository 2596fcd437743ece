import { describe, expect, it } from 'vitest';
import { EMPTY_SALES_FILTERS, salesExportQuery, salesSearchQuery } from './sales-filters.ts';

describe('sales filters', () => {
  it('exports the rows the list shows: the payment status goes to the export as to the search', () => {
    const overdue = { ...EMPTY_SALES_FILTERS, name: 'Roux', paymentStatus: 'overdue' as const };
    expect(salesSearchQuery(overdue, null)).toMatchObject({ name: 'Roux', paymentStatus: 'overdue' });
    expect(salesExportQuery(overdue, null, false)).toMatchObject({ name: 'Roux', paymentStatus: 'overdue' });
    // Not chosen: not sent, so the spec's query is unchanged.
    expect(salesExportQuery(EMPTY_SALES_FILTERS, null, true)).not.toHaveProperty('paymentStatus');
  });
});
