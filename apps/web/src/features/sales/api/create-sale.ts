import { type CreateSaleInput, type Sale, saleSchema } from '@back-office/contract/sales';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productKeys } from '../../../entities/products/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { salesQueryKeyRoot } from './search-sales.ts';

/**
 * `POST /api/sales` with the sale create payload (part 2 §3, §7): the server recomputes every figure
 * and answers 201 with the created sale.
 */
export function createSale(input: CreateSaleInput): Promise<Sale> {
  return apiRequest('/api/sales', { method: 'POST', body: input, schema: saleSchema });
}

/** Saves a sale, then refreshes the sales lists and the products (their stock went down). */
export function useCreateSale() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSale,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: salesQueryKeyRoot }),
        queryClient.invalidateQueries({ queryKey: productKeys.all }),
      ]);
    },
  });
}
