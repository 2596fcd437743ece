import {
  type PaymentStatus,
  paymentStatusSchema,
  type saleExportQuerySchema,
  saleSearchQuerySchema,
} from '@back-office/contract/sales';
import type { z } from 'zod';
import { fieldText as text } from '../../lib/format.ts';
import type { SearchQueryInput } from '../../lib/search-query.ts';

/**
 * The Sales search form (part 2 §3 "Sales search form": name, postCode, addedBefore, addedAfter,
 * amountMin, amountMax, salesRef, product) and how it becomes the query of each call that uses it
 * (§7 Sales: the search, the exports and the bulk email each have their own names).
 */

/** The fields of the search panel. Dates are `YYYY-MM-DD` or `''`; numbers are `''` while empty. */
export type SalesFilters = {
  name: string;
  postCode: string;
  addedBefore: string;
  addedAfter: string;
  amountMin: number | string;
  amountMax: number | string;
  salesRef: number | string;
  /** A product id as a string (the Select's value), or `''` for "** Optional **". */
  product: string;
  /** Only the issued invoices in this payment status (not in the spec; docs/decisions/032), `''` for any. */
  paymentStatus: PaymentStatus | '';
};

/** Every field empty (§2.5: no field is required). */
export const EMPTY_SALES_FILTERS: SalesFilters = {
  name: '',
  postCode: '',
  addedBefore: '',
  addedAfter: '',
  amountMin: '',
  amountMax: '',
  salesRef: '',
  product: '',
  paymentStatus: '',
};

/** §7: `id` is the subscriber's id, -1 when the list is not for one subscriber. */
export const ANY_SUBSCRIBER = -1;

/**
 * True when at least one field is filled (§4 Sales list: "no criteria and no subscriber gives
 * enter-criteria"). `includeSubscriberFields` is false in a subscriber's list, where the name,
 * postcode and date fields are not shown (§2.5) and so do not count.
 */
export function hasSalesCriteria(filters: SalesFilters, includeSubscriberFields = true): boolean {
  const shown = includeSubscriberFields
    ? [filters.name, filters.postCode, filters.addedBefore, filters.addedAfter]
    : [];
  return [
    ...shown,
    filters.amountMin,
    filters.amountMax,
    filters.salesRef,
    filters.product,
    filters.paymentStatus,
  ].some((value) => text(value) !== '');
}

/** The filters a subscriber's list really uses: name, postcode and dates are not shown there (§2.5). */
export function filtersForMode(filters: SalesFilters, subscriberId: number | null): SalesFilters {
  if (subscriberId === null) return filters;
  return { ...filters, name: '', postCode: '', addedBefore: '', addedAfter: '' };
}

/**
 * `GET /api/sales` query (§7) without the paging (`listfrom`, `listlength`): id, salesref, name, zip,
 * addedafter, addedbefore, greaterThan, lessThan, productid (empty fields sent as empty strings, §5),
 * and `paymentStatus` when one is chosen (docs/decisions/032).
 */
export function salesSearchQuery(filters: SalesFilters, subscriberId: number | null) {
  const used = filtersForMode(filters, subscriberId);
  return {
    id: String(subscriberId ?? ANY_SUBSCRIBER),
    salesref: text(used.salesRef),
    name: text(used.name),
    zip: text(used.postCode),
    addedafter: used.addedAfter,
    addedbefore: used.addedBefore,
    greaterThan: text(used.amountMin),
    lessThan: text(used.amountMax),
    productid: used.product,
    // Not in the spec: sent only when chosen, so that the spec's query stays as it was otherwise.
    ...(used.paymentStatus ? { paymentStatus: used.paymentStatus } : {}),
  } satisfies SearchQueryInput<typeof saleSearchQuerySchema>;
}

/**
 * `GET /api/sales/export` query (§7): its own names (amountMin, amountMax, product) plus isdetailed;
 * the sales reference is not sent (§7: "The export sends the product filter but not salesRef").
 */
export function salesExportQuery(filters: SalesFilters, subscriberId: number | null, detailed: boolean) {
  const used = filtersForMode(filters, subscriberId);
  return {
    id: String(subscriberId ?? ANY_SUBSCRIBER),
    name: text(used.name),
    zip: text(used.postCode),
    addedafter: used.addedAfter,
    addedbefore: used.addedBefore,
    amountMin: text(used.amountMin),
    amountMax: text(used.amountMax),
    isdetailed: detailed,
    product: used.product,
    ...(used.paymentStatus ? { paymentStatus: used.paymentStatus } : {}),
  } satisfies SearchQueryInput<typeof saleExportQuerySchema>;
}

/**
 * The filters part of the `POST /api/sales/email/list` body (§3 "Sales email-list payload"): texts and
 * dates as strings (`''` when empty, §5), numbers as numbers or null when empty.
 */
export type SalesEmailFilters = {
  id: number;
  name: string;
  postCode: string;
  salesRef: number | null;
  addedAfter: string;
  addedBefore: string;
  amountMin: number | null;
  amountMax: number | null;
  productId: number | null;
};

function numberOrNull(value: number | string): number | null {
  const trimmed = text(value);
  if (trimmed === '') return null;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : null;
}

/** The search's filters under the email payload's names (§3). */
export function salesEmailFilters(filters: SalesFilters, subscriberId: number | null): SalesEmailFilters {
  const used = filtersForMode(filters, subscriberId);
  return {
    id: subscriberId ?? ANY_SUBSCRIBER,
    name: text(used.name),
    postCode: text(used.postCode),
    salesRef: numberOrNull(used.salesRef),
    addedAfter: used.addedAfter,
    addedBefore: used.addedBefore,
    amountMin: numberOrNull(used.amountMin),
    amountMax: numberOrNull(used.amountMax),
    productId: numberOrNull(used.product),
  };
}

/** The filters part of `GET /api/sales` the screen keeps in its address (no subscriber, no paging). */
export const salesSearchFiltersSchema = saleSearchQuerySchema.omit({
  id: true,
  listfrom: true,
  listlength: true,
});

/** The search form's fields of a query read back from the address (missing parameters are empty). */
export function salesFiltersFromQuery(query: z.output<typeof salesSearchFiltersSchema>): SalesFilters {
  const numberOrEmpty = (value: number | '' | undefined) => (typeof value === 'number' ? value : '');
  return {
    name: text(query.name),
    postCode: text(query.zip),
    addedBefore: text(query.addedbefore),
    addedAfter: text(query.addedafter),
    amountMin: numberOrEmpty(query.greaterThan),
    amountMax: numberOrEmpty(query.lessThan),
    salesRef: numberOrEmpty(query.salesref),
    product: text(query.productid),
    paymentStatus: query.paymentStatus ?? '',
  };
}

/** Local-storage key of the Sales search form (§2.1 "Filters are saved to browser local storage"). */
export const SALES_FILTERS_STORAGE_KEY = 'sales.search-filters';

const NUMBER_FIELDS = ['amountMin', 'amountMax', 'salesRef'] as const;

/** The filters as stored: every field a string, so that they read back over {@link EMPTY_SALES_FILTERS}. */
export function filtersToStore(filters: SalesFilters): SalesFilters {
  const stored = { ...filters };
  for (const field of NUMBER_FIELDS) stored[field] = text(filters[field]);
  return stored;
}

/** Stored filters back as the form holds them: numbers as numbers, an unknown payment status as any. */
export function filtersFromStore(filters: SalesFilters): SalesFilters {
  const status = paymentStatusSchema.safeParse(filters.paymentStatus);
  const restored = { ...filters, paymentStatus: status.success ? status.data : ('' as const) };
  for (const field of NUMBER_FIELDS) {
    const value = text(filters[field]);
    restored[field] = value !== '' && Number.isFinite(Number(value)) ? Number(value) : '';
  }
  return restored;
}
