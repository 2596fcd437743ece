import { z } from 'zod';
import { MAX_ID, moneySchema, pageQueryShape, plainString } from './common.ts';

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
  /** Items in stock; changed only through stock movements (sales, cancellations, adjustments). */
  currentStock: z.number().int(),
  minStockAlert: z.number().int(),
  /** Bumped by every edit of the product; a PATCH must send the version it was read at. */
  version: z.number().int().positive(),
});
export type Product = z.infer<typeof productSchema>;

export const productListSchema = z.array(productSchema);

const stockSchema = (message: string) =>
  z
    .number({ message })
    .int({ message: 'Whole numbers only.' })
    .min(0, { message: 'The stock cannot be negative.' })
    .max(1_000_000_000, { message: 'The stock is too large.' });

/**
 * `POST /api/products` body; messages are the spec's (part 1 §5). `currentStock` is the initial
 * stock, recorded as a first `adjustment` movement ("Stock initial").
 */
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

/**
 * `PATCH /api/products/{id}` body: the catalogue fields, `id` (which must match the path) and the
 * `version` read before editing (a stale one answers 409 `products.stale`). The stock is not a
 * field of the edit: sending `currentStock` is a 400 naming it (use `POST .../adjustments`).
 */
export const updateProductInputSchema = saveProductInputSchema.omit({ currentStock: true }).extend({
  id: z.number().int().positive().max(MAX_ID).optional(),
  version: z
    .number({ message: 'The version read before editing is required.' })
    .int({ message: 'The version read before editing is required.' })
    .positive({ message: 'The version read before editing is required.' })
    .max(MAX_ID, { message: 'The version read before editing is required.' }),
  currentStock: z
    .never({ message: 'The stock changes only through a stock adjustment, not by editing the product.' })
    .optional(),
});
export type UpdateProductInput = z.infer<typeof updateProductInputSchema>;

/** Why the stock of a product moved: a sale, a cancelled sale, a manual adjustment, an import. */
export const STOCK_MOVEMENT_KINDS = ['sale', 'saleCancelled', 'adjustment', 'import'] as const;
export type StockMovementKind = (typeof STOCK_MOVEMENT_KINDS)[number];

/**
 * One row of a product's stock ledger. `quantity` is signed (items out are negative), `stockAfter`
 * the product's stock right after it, `at` ISO 8601, `userName` who made it.
 */
export const stockMovementSchema = z.object({
  id: z.number().int().positive(),
  at: z.string(),
  kind: z.enum(STOCK_MOVEMENT_KINDS),
  quantity: z.number().int(),
  stockAfter: z.number().int(),
  saleId: z.number().int().positive().optional(),
  reason: z.string().optional(),
  userName: z.string(),
});
export type StockMovement = z.infer<typeof stockMovementSchema>;

/** `GET /api/products/{id}/movements` answer: one page, newest first, and how many there are. */
export const stockMovementListSchema = z.object({
  count: z.number().int().min(0),
  models: z.array(stockMovementSchema),
});
export type StockMovementList = z.infer<typeof stockMovementListSchema>;

/** `GET /api/products/{id}/movements` query: 1-based `listfrom`, `listlength` up to 500 (default 50). */
export const stockMovementQuerySchema = z.object(pageQueryShape);
export type StockMovementQuery = z.infer<typeof stockMovementQuerySchema>;

/** The largest number of items one adjustment can move, in or out. */
export const MAX_ADJUSTMENT = 1_000_000_000;

/**
 * `POST /api/products/{id}/adjustments` body: a signed, non-zero number of items (positive adds,
 * negative takes out) and why. A result below 0 answers 409 `products.insufficient_stock`.
 */
export const stockAdjustmentInputSchema = z.object({
  quantity: z
    .number({ message: 'The quantity is a whole number of items.' })
    .int({ message: 'The quantity is a whole number of items.' })
    .min(-MAX_ADJUSTMENT, { message: 'The quantity is too large.' })
    .max(MAX_ADJUSTMENT, { message: 'The quantity is too large.' })
    .refine((value) => value !== 0, { message: 'The quantity cannot be 0.' }),
  reason: plainString({ message: 'The reason is required.' })
    .trim()
    .min(1, { message: 'The reason is required.' })
    .max(500, { message: 'The reason must have at most 500 characters.' }),
});
export type StockAdjustmentInput = z.infer<typeof stockAdjustmentInputSchema>;

/** Defaults of a new product (part 1 §4). */
export const NEW_PRODUCT: SaveProductInput = {
  name: '',
  euroPrice: 0,
  swissPrice: 0,
  active: true,
  currentStock: 0,
  minStockAlert: 0,
};
