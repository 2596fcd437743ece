import { z } from 'zod';

/** `GET /api/dash/prods` (part 1 §7 Dashboard): active products at or below their minimum stock; key = name, value = stock. */
export const lowStockSchema = z.object({
  keyedData: z.array(z.object({ key: z.string(), value: z.number().int() })),
});
export type LowStock = z.infer<typeof lowStockSchema>;

/** `GET /api/dash/subs`: active subscribers per country, `labels[i]` counted in `data[i]`. */
export const subscribersByCountrySchema = z.object({
  labels: z.array(z.string()),
  data: z.array(z.number().int()),
});
export type SubscribersByCountry = z.infer<typeof subscribersByCountrySchema>;
