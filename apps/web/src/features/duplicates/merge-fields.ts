import type { MergeableField } from '@back-office/contract/duplicates';
import type { ReferenceItem } from '@back-office/contract/reference-lists';
import type { Subscriber } from '@back-office/contract/subscribers';
import dayjs from 'dayjs';
import { DATE_FIELD_FORMAT } from '../../components/date-field.tsx';
import { formatMoney, formatNumber } from '../../lib/format.ts';

/** Which record's value the kept subscriber ends with: its own (`keep`) or the other's (`merge`). */
export type MergeChoice = 'keep' | 'merge';

/**
 * The fields a merge can take from either record, with the subscriber form's labels, in the order of
 * its panels (personal, address, contact, payment, subscription, mailing status, notes).
 */
export const MERGE_FIELD_LABELS = {
  title: 'Title',
  firstName: 'First Name',
  lastName: 'Last Name',
  categoryId: 'Category',
  association: 'Association',
  address1: 'Address 1',
  address2: 'Address 2',
  address3: 'Address 3',
  town: 'Town',
  countryId: 'Country',
  postcode: 'Postcode',
  billingAddress: 'Billing Address',
  phone: 'Phone',
  mobile: 'Mobile',
  fax: 'Fax',
  email: 'Email',
  onMailChimpList: 'On mailing list?',
  newsletterEmail: 'Newsletter Email',
  emailConsentDate: 'Email Consent Date',
  emailConsentSource: 'Email Consent Source',
  paymentMethodId: 'Payment Method',
  bank: 'Bank',
  iban: 'IBAN',
  currencyId: 'Currency',
  amount: 'Amount',
  rum: 'RUM',
  startDate: 'Start Date',
  endDate: 'End Date',
  subscriptionTypeId: 'Subscription Type',
  copies: 'Copies',
  recommendedBy: 'Recommended By',
  inactive: 'Still on mailing list?',
  inactiveReason: 'Reason for removal',
  notes: 'Notes',
} as const satisfies Record<MergeableField, string>;

/** The mergeable fields in the form's order. */
export const MERGE_FIELDS = Object.keys(MERGE_FIELD_LABELS) as MergeableField[];

/** The reference lists the ids of a record are named from. */
export type MergeLookups = {
  categories: readonly ReferenceItem[];
  countries: readonly ReferenceItem[];
  paymentMethods: readonly ReferenceItem[];
  currencies: readonly ReferenceItem[];
  subscriptionTypes: readonly ReferenceItem[];
};

const REFERENCE_FIELDS: Partial<Record<MergeableField, keyof MergeLookups>> = {
  categoryId: 'categories',
  countryId: 'countries',
  paymentMethodId: 'paymentMethods',
  currencyId: 'currencies',
  subscriptionTypeId: 'subscriptionTypes',
};

/** Whether a value counts as not filled in: blank text, no date, no reference item (0), a zero amount or count. */
export function isEmptyValue(value: Subscriber[MergeableField]): boolean {
  if (value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'number') return value === 0;
  return false;
}

/** Whether both records hold the same value (text compared as written, apart from surrounding spaces). */
export function sameValue(field: MergeableField, a: Subscriber, b: Subscriber): boolean {
  const left = a[field];
  const right = b[field];
  if (typeof left === 'string' && typeof right === 'string') return left.trim() === right.trim();
  return left === right;
}

/** The default choice: keep the kept record's value, unless it is empty and the other record's is not. */
export function defaultChoice(field: MergeableField, keep: Subscriber, merge: Subscriber): MergeChoice {
  return isEmptyValue(keep[field]) && !isEmptyValue(merge[field]) ? 'merge' : 'keep';
}

/**
 * A field's value as the subscriber screen shows it: reference items by name, dates and amounts the
 * French way, yes/no for switches; `''` when empty.
 */
export function displayValue(field: MergeableField, subscriber: Subscriber, lookups: MergeLookups): string {
  const value = subscriber[field];
  const list = REFERENCE_FIELDS[field];
  if (list) {
    if (value === 0) return '';
    return lookups[list].find((item) => item.id === value)?.name ?? `no. ${String(value)}`;
  }
  if (field === 'inactive') return value ? 'No' : 'Yes';
  if (field === 'onMailChimpList') return value ? 'Yes' : 'No';
  if (field === 'amount' && typeof value === 'number') {
    if (value === 0) return '';
    const symbol = lookups.currencies.find((item) => item.id === subscriber.currencyId)?.symbol;
    return symbol ? `${formatMoney(value)} ${symbol}` : formatMoney(value);
  }
  if (field === 'copies' && typeof value === 'number') return value === 0 ? '' : formatNumber(value);
  if (
    (field === 'startDate' || field === 'endDate' || field === 'emailConsentDate') &&
    typeof value === 'string'
  ) {
    return dayjs(value).format(DATE_FIELD_FORMAT);
  }
  return typeof value === 'string' ? value.trim() : '';
}

/** "Zoé Dupont": first and last name (the title left out), or the id when both are blank. */
export function subscriberName(subscriber: Pick<Subscriber, 'id' | 'firstName' | 'lastName'>): string {
  const name = `${subscriber.firstName} ${subscriber.lastName}`.trim();
  return name || `Subscriber no. ${subscriber.id}`;
}
