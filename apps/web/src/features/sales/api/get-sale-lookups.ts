import { type ReferenceItem, referenceItemListSchema } from '@back-office/contract/reference-lists';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * The countries and currencies of the New Sale screen (part 2 §2.6: country select, the buyer's
 * currency symbol; §7 "currency and country lists ... come through other calls"). Same keys as the
 * reference-list screens, so an edit there shows here.
 */

/** `GET /api/ctries`. */
export function getSaleCountries(signal?: AbortSignal): Promise<ReferenceItem[]> {
  return apiRequest('/api/ctries', { schema: referenceItemListSchema, ...(signal ? { signal } : {}) });
}

/** `GET /api/currencies` (items carry their `symbol`). */
export function getSaleCurrencies(signal?: AbortSignal): Promise<ReferenceItem[]> {
  return apiRequest('/api/currencies', { schema: referenceItemListSchema, ...(signal ? { signal } : {}) });
}

/** The countries list. */
export function useSaleCountries() {
  return useQuery(
    queryOptions({
      queryKey: ['reference-lists', 'ctries'] as const,
      queryFn: ({ signal }) => getSaleCountries(signal),
    }),
  );
}

/** The currencies list. */
export function useSaleCurrencies() {
  return useQuery(
    queryOptions({
      queryKey: ['reference-lists', 'currencies'] as const,
      queryFn: ({ signal }) => getSaleCurrencies(signal),
    }),
  );
}
