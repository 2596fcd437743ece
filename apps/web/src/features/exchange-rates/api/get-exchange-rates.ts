import {
  type ExchangeRate,
  exchangeRateListQuerySchema,
  exchangeRateListSchema,
} from '@back-office/contract/exchange-rates';
import type { InfinitePage } from '../../../components/infinite-table.tsx';
import { apiRequest } from '../../../lib/api-client.ts';
import { searchQueryString } from '../../../lib/search-query.ts';

/** The Exchange rates screen's filters as typed: empty strings mean "any". Days are `YYYY-MM-DD`. */
export type ExchangeRateFilters = { currency: string; from: string; to: string };

export const EMPTY_EXCHANGE_RATE_FILTERS: ExchangeRateFilters = { currency: '', from: '', to: '' };

/** Every query of the exchange rates lives under this key; a save or an import refreshes them all. */
export const exchangeRatesQueryKey = ['exchange-rates'] as const;

/** Query key of one search: the filters as searched and the search's number (Search again = fresh list). */
export function exchangeRatesSearchQueryKey(filters: ExchangeRateFilters, searchNumber: number) {
  return [...exchangeRatesQueryKey, 'list', filters, searchNumber] as const;
}

/**
 * `GET /api/exchange-rates` (anyone signed in): one page of rates, newest day first, with the number of
 * matches; only the filters given are sent.
 */
export async function getExchangeRates(
  filters: ExchangeRateFilters,
  listfrom: number,
  listlength: number,
  signal?: AbortSignal,
): Promise<InfinitePage<ExchangeRate>> {
  const currency = filters.currency.trim();
  const query = searchQueryString(exchangeRateListQuerySchema, {
    ...(currency ? { currency } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
    listfrom,
    listlength,
  });
  const result = await apiRequest(`/api/exchange-rates?${query}`, {
    schema: exchangeRateListSchema,
    ...(signal ? { signal } : {}),
  });
  return { count: result.count, rows: result.models };
}
