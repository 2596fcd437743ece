import {
  type ReceiptStatus,
  type RegisteredReceipt,
  receiptRegisterQuerySchema,
  receiptRegisterSchema,
} from '@back-office/contract/receipts';
import type { InfinitePage } from '../../../components/infinite-table.tsx';
import { apiRequest } from '../../../lib/api-client.ts';
import { searchQueryString } from '../../../lib/search-query.ts';

/** The Receipts screen's filters as typed: the year of the gifts and the status; `''` means "any". */
export type ReceiptFilters = {
  year: number | '';
  status: ReceiptStatus | '';
};

export const EMPTY_RECEIPT_FILTERS: ReceiptFilters = { year: '', status: '' };

/** Every query of the register lives under this key: refreshed after a cancel or a replace. */
export const receiptsQueryKeyRoot = ['receipts'] as const;

/** Query key of one search: the filters as searched and the search's number (Search again = fresh list). */
export function receiptsSearchQueryKey(filters: ReceiptFilters, searchNumber: number) {
  return [...receiptsQueryKeyRoot, 'search', filters, searchNumber] as const;
}

/** The filters given, as the register's query names (`year`, `status`); none when empty. */
export function receiptFilterQuery(filters: ReceiptFilters) {
  return {
    ...(filters.year === '' ? {} : { year: filters.year }),
    ...(filters.status ? { status: filters.status } : {}),
  };
}

/**
 * `GET /api/receipts?year&status&listfrom&listlength` (any signed-in user): one page of the register,
 * every receipt ever issued (cancelled ones too) by number, with the number of matches.
 */
export async function searchReceipts(
  filters: ReceiptFilters,
  listfrom: number,
  listlength: number,
  signal?: AbortSignal,
): Promise<InfinitePage<RegisteredReceipt>> {
  const query = searchQueryString(receiptRegisterQuerySchema, {
    ...receiptFilterQuery(filters),
    listfrom,
    listlength,
  });
  const result = await apiRequest(`/api/receipts?${query}`, {
    schema: receiptRegisterSchema,
    ...(signal ? { signal } : {}),
  });
  return { count: result.count, rows: result.models };
}
