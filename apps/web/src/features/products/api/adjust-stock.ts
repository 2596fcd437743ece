import {
  type StockAdjustmentInput,
  type StockMovement,
  stockMovementSchema,
} from '@back-office/contract/products';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productKeys } from '../../../entities/products/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** The adjustment and the product it moves. */
export type AdjustStockVariables = StockAdjustmentInput & { productId: number };

/**
 * `POST /api/products/{id}/adjustments {quantity, reason}`: a signed, non-zero number of items and
 * why; returns the movement (201). 409 `products.insufficient_stock` when the stock would go below 0.
 */
export function adjustStock({ productId, quantity, reason }: AdjustStockVariables): Promise<StockMovement> {
  return apiRequest(`/api/products/${productId}/adjustments`, {
    method: 'POST',
    body: { quantity, reason },
    schema: stockMovementSchema,
  });
}

/** Adjusts the stock, then refreshes the products and their movements from the server. */
export function useAdjustStock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adjustStock,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
