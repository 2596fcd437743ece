import { type SaleSummary, saleSearchQuerySchema, saleSummarySchema } from '@back-office/contract/sales';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { searchQueryString } from '../../../lib/search-query.ts';

/**
 * `GET /api/sales?id=-1&salesref={ref}` (part 2 §7): the sale whose reference (invoice number) is `ref`,
 * or null when none has it; how the Pay an invoice dialog turns the number a person reads on the
 * invoice into the sale's id.
 */
export async function findSaleByRef(ref: number): Promise<SaleSummary | null> {
  const query = searchQueryString(saleSearchQuerySchema, {
    id: '-1',
    salesref: String(ref),
    listfrom: 1,
    listlength: 1,
  });
  const [sale] = await apiRequest(`/api/sales?${query}`, { schema: z.array(saleSummarySchema) });
  return sale ?? null;
}
