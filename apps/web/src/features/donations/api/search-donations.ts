import {
  type DonationSearchResult,
  donationSearchQuerySchema,
  donationSearchResultSchema,
} from '@back-office/contract/donations';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { fieldText } from '../../../lib/format.ts';
import { searchQueryString } from '../../../lib/search-query.ts';

/**
 * `GET /api/donations` (part 2 §7 Donations) with exactly `id, name, zip, addedafter, addedbefore,
 * amountMin, amountMax, isdebit, listfrom, listlength, country, category`; answers `{count, models}`,
 * newest first.
 */

/** Payment Method filter (part 2 §2.4): Both = 0, Paid by Direct Debit Only = 1, Not Paid by Direct Debit = 2. */
export type PaymentFilter = '0' | '1' | '2';

/** The options of the Payment Method select, in the spec's order (part 2 §2.4). */
export const PAYMENT_FILTER_OPTIONS: ReadonlyArray<{ value: PaymentFilter; label: string }> = [
  { value: '0', label: 'Both' },
  { value: '1', label: 'Paid by Direct Debit Only' },
  { value: '2', label: 'Not Paid by Direct Debit' },
];

/**
 * The donation search form (part 2 §3 Donation search filter). Select values are strings ('0' = any);
 * amounts are `''` while empty; dates are `YYYY-MM-DD` or `''`.
 */
export type DonationSearchFilters = {
  name: string;
  postCode: string;
  isDebit: PaymentFilter;
  country: string;
  category: string;
  addedBefore: string;
  addedAfter: string;
  amountMin: number | string;
  amountMax: number | string;
};

/** Every field empty: the form's start and what Clear restores. */
export const EMPTY_DONATION_FILTERS: DonationSearchFilters = {
  name: '',
  postCode: '',
  isDebit: '0',
  country: '0',
  category: '0',
  addedBefore: '',
  addedAfter: '',
  amountMin: '',
  amountMax: '',
};

/**
 * The filters that apply to a search: with a subscriber, name, postcode, payment and country are not
 * shown (part 2 §2.4), so they are not sent either.
 */
export function effectiveFilters(
  filters: DonationSearchFilters,
  subscriberId: number | null,
): DonationSearchFilters {
  if (subscriberId === null) return filters;
  return { ...filters, name: '', postCode: '', isDebit: '0', country: '0' };
}

/** Whether any criterion is set (part 2 §4: no criteria gives "Please enter some search criteria."). */
export function hasCriteria(filters: DonationSearchFilters): boolean {
  return (
    filters.name.trim() !== '' ||
    filters.postCode.trim() !== '' ||
    filters.isDebit !== '0' ||
    filters.country !== '0' ||
    filters.category !== '0' ||
    filters.addedBefore !== '' ||
    filters.addedAfter !== '' ||
    String(filters.amountMin) !== '' ||
    String(filters.amountMax) !== ''
  );
}

function selectValue(value: string): string {
  return value === '0' ? '' : value;
}

/**
 * The query string of a search or an export (part 2 §7): every parameter is sent, empty when unset
 * (§5: "Search dates are sent as YYYY-MM-DD, or as an empty string when not set"); `id` is the
 * subscriber when one is selected.
 */
export function donationSearchQuery(filters: DonationSearchFilters, subscriberId: number | null) {
  const applied = effectiveFilters(filters, subscriberId);
  return {
    id: subscriberId === null ? '' : String(subscriberId),
    name: applied.name.trim(),
    zip: applied.postCode.trim(),
    addedafter: applied.addedAfter,
    addedbefore: applied.addedBefore,
    amountMin: String(applied.amountMin),
    amountMax: String(applied.amountMax),
    isdebit: applied.isDebit,
    country: selectValue(applied.country),
    category: selectValue(applied.category),
  };
}

/** The filters part of `GET /api/donations` the screen keeps in its address (no subscriber, no paging). */
export const donationSearchFiltersSchema = donationSearchQuerySchema.omit({
  id: true,
  listfrom: true,
  listlength: true,
});

/** The search form's fields of a query read back from the address (missing parameters are empty or any). */
export function donationFiltersFromQuery(
  query: z.output<typeof donationSearchFiltersSchema>,
): DonationSearchFilters {
  const anyIfEmpty = (value: number | '' | undefined) =>
    value === undefined || value === '' ? '0' : String(value);
  return {
    name: fieldText(query.name),
    postCode: fieldText(query.zip),
    isDebit: anyIfEmpty(query.isdebit) as PaymentFilter,
    country: anyIfEmpty(query.country),
    category: anyIfEmpty(query.category),
    addedBefore: fieldText(query.addedbefore),
    addedAfter: fieldText(query.addedafter),
    amountMin: fieldText(query.amountMin),
    amountMax: fieldText(query.amountMax),
  };
}

/** One page of the search: `listfrom` is 1-based, `listlength` the page size (part 2 §4, §9). */
export function searchDonations(
  filters: DonationSearchFilters,
  subscriberId: number | null,
  listfrom: number,
  listlength: number,
  signal?: AbortSignal,
): Promise<DonationSearchResult> {
  const query = searchQueryString(donationSearchQuerySchema, {
    ...donationSearchQuery(filters, subscriberId),
    listfrom,
    listlength,
  });
  return apiRequest(`/api/donations?${query}`, {
    schema: donationSearchResultSchema,
    ...(signal ? { signal } : {}),
  });
}

/** Root of every donations query key: invalidated after a create, delete or receipt. */
export const donationsQueryKey = ['donations'] as const;

/** Query key of one search (a new key is a new search from position 1, part 2 §4). */
export function donationSearchQueryKey(filters: DonationSearchFilters, subscriberId: number | null) {
  return [...donationsQueryKey, 'search', subscriberId, effectiveFilters(filters, subscriberId)] as const;
}
