import { type Sale, saleSchema } from '@back-office/contract/sales';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Query key of one sale's detail. */
export function saleQueryKey(id: number) {
  return ['sales', 'detail', id] as const;
}

/**
 * `GET /api/sales/{id}`: the sale with its lines and, once its invoice is issued, its payment
 * reference, payment status, due date, amount paid and payments (docs/decisions/032).
 */
export function getSale(id: number, signal?: AbortSignal): Promise<Sale> {
  return apiRequest(`/api/sales/${id}`, { schema: saleSchema, ...(signal ? { signal } : {}) });
}

/** One sale, read fresh each time its payments are opened; nothing is asked while `id` is null. */
export function useSale(id: number | null) {
  return useQuery(
    queryOptions({
      queryKey: saleQueryKey(id ?? 0),
      queryFn: ({ signal }) => getSale(id ?? 0, signal),
      enabled: id !== null,
      staleTime: 0,
    }),
  );
}
