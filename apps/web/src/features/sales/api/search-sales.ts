import { type SaleSummary, saleSearchQuerySchema, saleSummarySchema } from '@back-office/contract/sales';
import { z } from 'zod';
import type { InfinitePage } from '../../../components/infinite-table.tsx';
import { apiRequest } from '../../../lib/api-client.ts';
import { searchQueryString } from '../../../lib/search-query.ts';
import { type SalesFilters, salesSearchQuery } from '../sales-filters.ts';

/** The root of every sales search key (`['sales', 'search', ...]`). */
export const salesQueryKeyRoot = ['sales', 'search'] as const;

/**
 * Query key of one search: the subscriber (or -1), the filters as searched, and the search's number,
 * so that pressing Search again starts a fresh list at position 1 (§4 "a new search resets list and
 * start to 1").
 */
export function salesSearchQueryKey(
  subscriberId: number | null,
  filters: SalesFilters,
  searchNumber: number,
) {
  return [...salesQueryKeyRoot, subscriberId ?? -1, filters, searchNumber] as const;
}

const saleSummaryListSchema = z.array(saleSummarySchema);

/**
 * `GET /api/sales` (part 2 §7): one page of sales, newest first. The answer is a plain list; a page
 * shorter than `listlength` is the last one.
 */
export async function searchSales(
  filters: SalesFilters,
  subscriberId: number | null,
  listfrom: number,
  listlength: number,
  signal?: AbortSignal,
): Promise<InfinitePage<SaleSummary>> {
  const query = searchQueryString(saleSearchQuerySchema, {
    ...salesSearchQuery(filters, subscriberId),
    listfrom,
    listlength,
  });
  const rows = await apiRequest(`/api/sales?${query}`, {
    schema: saleSummaryListSchema,
    ...(signal ? { signal } : {}),
  });
  return { rows };
}
