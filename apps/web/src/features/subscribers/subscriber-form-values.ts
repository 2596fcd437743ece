import type { ReferenceItem } from '@back-office/contract/reference-lists';
import {
  type SaveSubscriber,
  type Subscriber,
  saveSubscriberInputSchema,
} from '@back-office/contract/subscribers';
import type { UseFormReturnType } from '@mantine/form';
import { organisationToday } from '../../lib/calendar.ts';
import { schemaValidator } from '../../lib/form.ts';

/**
 * The subscriber form's values and rules (part 2 §2.2, §3, §5). Reference ids are numbers (0 = none);
 * amount and copies hold `''` while their field is empty.
 */
export type SubscriberFormValues = Omit<
  Subscriber,
  'amount' | 'copies' | 'startDate' | 'endDate' | 'emailConsentDate' | 'addedBy' | 'addedOn' | 'hidden'
> & {
  amount: number | string;
  copies: number | string;
  /** `YYYY-MM-DD` or `''`. */
  startDate: string;
  endDate: string;
  emailConsentDate: string;
};

/** The form instance every panel of the subscriber screen edits (one form, eight panels; §2.2). */
export type SubscriberForm = UseFormReturnType<SubscriberFormValues>;

/** The reference lists the subscriber form chooses from (part 2 §7 lookups). */
export type SubscriberLookups = {
  categories: ReferenceItem[];
  subscriptionTypes: ReferenceItem[];
  currencies: ReferenceItem[];
  tags: ReferenceItem[];
  countries: ReferenceItem[];
  paymentMethods: ReferenceItem[];
};

/** The form's values of a record (a blank one from `GET /api/subscribers/new`, or a saved one). */
export function toFormValues(subscriber: Subscriber): SubscriberFormValues {
  const { addedBy: _addedBy, addedOn: _addedOn, hidden: _hidden, ...fields } = subscriber;
  return {
    ...fields,
    startDate: subscriber.startDate ?? '',
    endDate: subscriber.endDate ?? '',
    emailConsentDate: subscriber.emailConsentDate ?? '',
  };
}

/**
 * The save payload of the form's values (§5: empty dates become null; empty numbers 0). A record never
 * saved has no version to send.
 */
export function toSavePayload(values: SubscriberFormValues): Record<string, unknown> {
  const { version, ...fields } = values;
  return {
    ...fields,
    ...(version > 0 ? { version } : {}),
    amount: values.amount === '' ? 0 : values.amount,
    copies: values.copies === '' ? 0 : values.copies,
    startDate: values.startDate || null,
    endDate: values.endDate || null,
    emailConsentDate: values.emailConsentDate || null,
  };
}

const validatePayload = schemaValidator(saveSubscriberInputSchema);

/** Validates the form with the contract's schema (§5 texts: "First name.", "Last name.", "Currency."). */
export function validateSubscriberForm(values: SubscriberFormValues) {
  return validatePayload(toSavePayload(values));
}

/** The checked payload of valid values. */
export function parseSubscriberForm(values: SubscriberFormValues): SaveSubscriber {
  return saveSubscriberInputSchema.parse(toSavePayload(values));
}

/** The fields listed under "Required:" after a save attempt (§5), in this order. */
export const REQUIRED_FIELDS = ['firstName', 'lastName', 'currencyId'] as const;

/**
 * §5: "Choosing a country whose name contains 'suisse' automatically selects the currency whose name
 * contains 'swiss'." Returns that currency's id, or null when the rule does not apply.
 */
export function currencyForCountry(
  countryId: number,
  countries: readonly ReferenceItem[],
  currencies: readonly ReferenceItem[],
): number | null {
  const country = countries.find((item) => item.id === countryId);
  if (!country?.name.toLowerCase().includes('suisse')) return null;
  return currencies.find((item) => item.name.toLowerCase().includes('swiss'))?.id ?? null;
}

/**
 * §5: "On a new subscriber with no currency, the first currency is preselected; the option named EURO
 * is preselected in the list." EURO when it exists, otherwise the first currency; 0 without currencies.
 */
export function defaultCurrencyId(currencies: readonly ReferenceItem[]): number {
  const euro = currencies.find((item) => item.name.trim().toUpperCase() === 'EURO');
  return euro?.id ?? currencies[0]?.id ?? 0;
}

/**
 * §5 Copy to Notes: the block appended to the notes, "Address changed (date):" then the address lines,
 * town, postcode and country name, one per line (empty ones left out). The date is DD-MM-YYYY.
 */
export function addressChangedNote(
  values: Pick<SubscriberFormValues, 'address1' | 'address2' | 'address3' | 'town' | 'postcode'>,
  countryName: string,
  date: Date = new Date(),
): string {
  const lines = [values.address1, values.address2, values.address3, values.town, values.postcode, countryName]
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const [year, month, day] = organisationToday(date).split('-');
  return [`Address changed (${day}-${month}-${year}):`, ...lines].join('\n');
}

/** The notes with the address block appended after a blank line (or alone when notes are empty). */
export function appendToNotes(notes: string, block: string): string {
  const current = notes.replace(/\s+$/, '');
  return current ? `${current}\n\n${block}` : block;
}

/** The heading of the subscriber screen (§2.2): "title first last", or New Subscriber. */
export function subscriberHeading(
  subscriber: Pick<Subscriber, 'id' | 'title' | 'firstName' | 'lastName'>,
): string {
  if (subscriber.id <= 0) return 'New Subscriber';
  return [subscriber.title, subscriber.firstName, subscriber.lastName]
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' ');
}

/** "first last" of the success toast and history title (§8). */
export function subscriberFullName(subscriber: Pick<Subscriber, 'firstName' | 'lastName'>): string {
  return `${subscriber.firstName} ${subscriber.lastName}`.trim();
}
