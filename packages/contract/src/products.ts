import { z } from 'zod';
import { MAX_ID, moneySchema, plainString } from './common.ts';

/**
 * Products (part 1 §2 Products, §3 Product, §5 Product form, §7 Products).
 * Prices are in units (euros, Swiss francs) with at most 2 decimals; stocks are whole items.
 */

export const productSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  euroPrice: z.number(),
  swissPrice: z.number(),
  active: z.boolean(),
  currentStock: z.number().int(),
  minStockAlert: z.number().int(),
});
export type Product = z.infer<typeof productSchema>;

export const productListSchema = z.array(productSchema);

const stockSchema = (message: string) =>
  z
    .number({ message })
    .int({ message: 'Whole numbers only.' })
    .min(0, { message: 'The stock cannot be negative.' })
    .max(1_000_000_000, { message: 'The stock is too large.' });

/** `POST /api/products` body; messages are the spec's (part 1 §5). */
export const saveProductInputSchema = z.object({
  name: plainString({ message: 'Name is required' })
    .trim()
    .min(4, { message: 'Name is required' })
    .max(200, { message: 'The name must have at most 200 characters.' }),
  euroPrice: moneySchema('Price (Euro) is required'),
  swissPrice: moneySchema('Price (Swiss) is required'),
  active: z.boolean({ message: 'Active is required' }),
  currentStock: stockSchema('Stock is required'),
  minStockAlert: stockSchema('Min Stock is required'),
});
export type SaveProductInput = z.infer<typeof saveProductInputSchema>;

/** `PATCH /api/products/{id}` body: the same fields plus `id` (which must match the path). */
export const updateProductInputSchema = saveProductInputSchema.extend({
  id: z.number().int().positive().max(MAX_ID).optional(),
});
export type UpdateProductInput = z.infer<typeof updateProductInputSchema>;

/** Defaults of a new product (part 1 §4). */
export const NEW_PRODUCT: SaveProductInput = {
  name: '',
  euroPrice: 0,
  swissPrice: 0,
  active: true,
  currentStock: 0,
  minStockAlert: 0,
};
