import { z } from 'zod';
import { MAX_ID, MIN_INTEGER, plainString } from './common.ts';
import { countryCodeOrEmptySchema, currencyCodeOrEmptySchema } from './iso-codes.ts';

/**
 * The six reference lists (part 1 §2 Reference-data lists, §3, §5, §7 Reference data).
 * One description per list drives the generic server module and the generic screen.
 */

export const REFERENCE_LIST_KEYS = ['subs', 'cats', 'ctries', 'pmethods', 'currencies', 'tags'] as const;
export type ReferenceListKey = (typeof REFERENCE_LIST_KEYS)[number];

/**
 * A reference item as the API returns it; only some lists carry `order`, `symbol`, `directDebit` or
 * `isoCode`. `isoCode` (countries and currencies) is the item's ISO code, or null while none is set:
 * ISO 3166-1 alpha-2 for a country (`FR`, `CH`), ISO 4217 for a currency (`EUR`, `CHF`). Receipts
 * choose their form by the donor's country code (docs/decisions/022).
 */
export const referenceItemSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  order: z.number().int().optional(),
  symbol: z.string().optional(),
  directDebit: z.boolean().optional(),
  isoCode: z.string().nullable().optional(),
});
export type ReferenceItem = z.infer<typeof referenceItemSchema>;

export const referenceItemListSchema = z.array(referenceItemSchema);

const nameSchema = (minLength: number) =>
  plainString({ message: 'Name is required' })
    .trim()
    .min(Math.max(1, minLength), { message: 'Name is required' })
    .max(100, { message: 'The name must have at most 100 characters.' });

/** A country's order is always 100 on create and edit (part 1 §4). */
export const COUNTRY_ORDER = 100;

/** Minimum name length per list (part 1 §5): 4, except countries (none) and tags (required only). */
export const REFERENCE_NAME_MIN_LENGTH: Record<ReferenceListKey, number> = {
  subs: 4,
  cats: 4,
  ctries: 1,
  pmethods: 4,
  currencies: 4,
  tags: 1,
};

const optionalId = z.number().int().positive().max(MAX_ID).optional();

/**
 * An item's ISO code in a body: the code, or null or empty for none; left out, an edit keeps the
 * item's code. Unique within its list: a code another item has is a 409 naming `isoCode`.
 */
const isoCodeInput = (code: typeof countryCodeOrEmptySchema) => code.nullable().optional();

/** Body of `POST` and `PATCH` for each list; `id` is optional and must match the path when given. */
export const referenceItemInputSchemas = {
  subs: z.object({ id: optionalId, name: nameSchema(4) }),
  cats: z.object({ id: optionalId, name: nameSchema(4) }),
  ctries: z.object({
    id: optionalId,
    name: nameSchema(1),
    order: z.number().int().min(MIN_INTEGER).max(MAX_ID).optional(),
    /** ISO 3166-1 alpha-2 (`FR`), two capital letters that name a country (i18n-iso-countries' list). */
    isoCode: isoCodeInput(countryCodeOrEmptySchema),
  }),
  pmethods: z.object({
    id: optionalId,
    name: nameSchema(4),
    directDebit: z.boolean().optional(),
  }),
  currencies: z.object({
    id: optionalId,
    name: nameSchema(4),
    symbol: plainString({ message: 'Symbol is required' })
      .trim()
      .min(1, { message: 'Symbol is required' })
      .max(10, { message: 'The symbol must have at most 10 characters.' }),
    /** ISO 4217 (`EUR`), three capital letters that name a currency of list one (currency-codes' list). */
    isoCode: isoCodeInput(currencyCodeOrEmptySchema),
  }),
  tags: z.object({ id: optionalId, name: nameSchema(1) }),
} as const satisfies Record<ReferenceListKey, z.ZodType>;

export type ReferenceItemInput = {
  id?: number | undefined;
  name: string;
  order?: number | undefined;
  symbol?: string | undefined;
  directDebit?: boolean | undefined;
  /** Countries and currencies: null for none; left out, an edit keeps the item's code. */
  isoCode?: string | null | undefined;
};
