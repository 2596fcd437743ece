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

/**
 * `GET /api/dash/overdue` (docs/decisions/032): the issued invoices past their due date and not paid
 * in full, how many, and what remains to pay on them per currency (units of that currency, largest
 * first).
 */
export const overdueInvoicesSchema = z.object({
  count: z.number().int(),
  amounts: z.array(z.object({ currencySymbol: z.string(), amount: z.number() })),
});
export type OverdueInvoices = z.infer<typeof overdueInvoicesSchema>;
