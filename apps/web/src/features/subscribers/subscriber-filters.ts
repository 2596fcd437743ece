import {
  type SubscriberEmailListInput,
  subscriberSearchQuerySchema,
} from '@back-office/contract/subscribers';
import type { z } from 'zod';
import { fieldText as text } from '../../lib/format.ts';
import type { SearchQueryInput } from '../../lib/search-query.ts';

/**
 * The search filters of the subscribers screen (part 2 §2.1, §4, §5, §7 `GET /api/subscribers/`).
 * Selects hold ids as strings (`''` = any); dates are `YYYY-MM-DD` or `''`.
 */
export type SubscriberFilters = {
  firstName: string;
  lastName: string;
  town: string;
  postcode: string;
  country: string;
  association: string;
  /** Mailing List Status: `''` none, `'0'` Included & Excluded, `'1'` Included Only, `'2'` Excluded Only (§4). */
  status: string;
  paymentMethod: string;
  tag: string;
  addedBefore: string;
  addedAfter: string;
  /** Receiving x or more copies; `''` = any. */
  copies: string;
  category: string;
};

export const EMPTY_SUBSCRIBER_FILTERS: SubscriberFilters = {
  firstName: '',
  lastName: '',
  town: '',
  postcode: '',
  country: '',
  association: '',
  status: '',
  paymentMethod: '',
  tag: '',
  addedBefore: '',
  addedAfter: '',
  copies: '',
  category: '',
};

/** Local-storage key of the stored filters (§2.1). */
export const SUBSCRIBER_FILTERS_STORAGE_KEY = 'subscribers.search-filters';

/** Mailing List Status options (§4); the empty option is "no filter". */
export const MAILING_LIST_STATUS_OPTIONS = [
  { value: '0', label: 'Included & Excluded' },
  { value: '1', label: 'Included Only' },
  { value: '2', label: 'Excluded Only' },
] as const;

/** True when at least one filter is set (otherwise: "Please enter some search criteria.", §4). */
export function hasSubscriberCriteria(filters: SubscriberFilters): boolean {
  return Object.values(filters).some((value) => value.trim() !== '');
}

/** The filters trimmed, so that "  Dupont " and "Dupont" are the same search. */
export function normaliseSubscriberFilters(filters: SubscriberFilters): SubscriberFilters {
  const result = { ...filters };
  for (const key of Object.keys(result) as (keyof SubscriberFilters)[]) result[key] = result[key].trim();
  return result;
}

/** The filters part of `GET /api/subscribers/` (no paging): what the screen keeps in its URL (§7 names). */
export const subscriberSearchFiltersSchema = subscriberSearchQuerySchema.omit({
  listfrom: true,
  listlength: true,
});

/**
 * The query of `GET /api/subscribers/` and `/export` under the spec's names (§7): firstname, name,
 * assoc, tag, town, postcode, country, category, addedafter, addedbefore, pmeth, copies, status.
 * Every name is sent, empty meaning "no filter" (§5: search dates are sent empty when not set).
 */
export function subscriberSearchQuery(filters: SubscriberFilters) {
  const f = normaliseSubscriberFilters(filters);
  return {
    firstname: f.firstName,
    name: f.lastName,
    assoc: f.association,
    tag: f.tag,
    town: f.town,
    postcode: f.postcode,
    country: f.country,
    category: f.category,
    addedafter: f.addedAfter,
    addedbefore: f.addedBefore,
    pmeth: f.paymentMethod,
    copies: f.copies,
    status: f.status,
  } satisfies SearchQueryInput<typeof subscriberSearchFiltersSchema>;
}

/** The form's filters of a query read back from the URL (missing parameters are empty). */
export function subscriberFiltersFromQuery(
  query: z.output<typeof subscriberSearchFiltersSchema>,
): SubscriberFilters {
  return {
    firstName: text(query.firstname),
    lastName: text(query.name),
    town: text(query.town),
    postcode: text(query.postcode),
    country: text(query.country),
    association: text(query.assoc),
    status: text(query.status),
    paymentMethod: text(query.pmeth),
    tag: text(query.tag),
    addedBefore: text(query.addedbefore),
    addedAfter: text(query.addedafter),
    copies: text(query.copies),
    category: text(query.category),
  };
}

/** A list choice as the email payload wants it: the id, or null when empty (§5). */
function idOrNull(value: string): number | null {
  return value === '' ? null : Number(value);
}

/**
 * The filters part of `POST /api/subscribers/email/list` (§3 "Subscriber email-list payload", §5:
 * "empty multi-select filters (category, payment method, country, tag) and empty copies or status
 * are sent as null").
 */
export function subscriberEmailFilters(
  filters: SubscriberFilters,
): Omit<SubscriberEmailListInput, 'subject' | 'message'> {
  const f = normaliseSubscriberFilters(filters);
  return {
    name: f.lastName,
    firstName: f.firstName,
    town: f.town,
    postcode: f.postcode,
    assoc: f.association,
    category: idOrNull(f.category),
    country: idOrNull(f.country),
    pmeth: idOrNull(f.paymentMethod),
    receivingCopies: idOrNull(f.copies),
    addedAfter: f.addedAfter,
    addedBefore: f.addedBefore,
    copies: idOrNull(f.copies),
    status: idOrNull(f.status),
    tag: idOrNull(f.tag),
  };
}
