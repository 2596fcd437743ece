import type { Subscriber } from '@back-office/contract/subscribers';
import { SUBSCRIBER_REFERENCES } from './subscriber-references.repository.ts';

/** Words for each field in history lines (part 2 §2.2 labels). Reference fields are described by name. */
const FIELD_WORDS: Partial<Record<keyof Subscriber, string>> = {
  title: 'title',
  firstName: 'first name',
  lastName: 'last name',
  email: 'email',
  phone: 'phone',
  mobile: 'mobile',
  fax: 'fax',
  address1: 'address line 1',
  address2: 'address line 2',
  address3: 'address line 3',
  town: 'town',
  postcode: 'postcode',
  billingAddress: 'billing address',
  association: 'association',
  inactiveReason: 'reason for removal',
  rum: 'mandate reference (RUM)',
  recommendedBy: 'recommended by',
  copies: 'copies',
  bank: 'bank',
  amount: 'amount',
  startDate: 'start date',
  endDate: 'end date',
  newsletterEmail: 'newsletter email',
  emailConsentDate: 'email consent date',
  emailConsentSource: 'email consent source',
};

const quote = (value: unknown) =>
  value === '' || value === null || value === undefined ? '(empty)' : `'${String(value)}'`;
const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** Shows only the last 4 characters of an IBAN: history is read by every staff member. */
function maskIban(iban: string) {
  return iban ? `ending ${iban.replace(/\s/g, '').slice(-4)}` : '(empty)';
}

export type ReferenceNames = Map<string, Map<number, string>>;

/**
 * One plain-words line for what changed between two versions of a subscriber, e.g.
 * `Changed town from 'Lyon' to 'Genève'; country from 'France' to 'Suisse'; tags: added 'VIP'.`
 * Returns undefined when nothing changed (part 2 §2.3).
 */
export function describeSubscriberChanges(
  before: Subscriber,
  after: Subscriber,
  names: ReferenceNames,
): string | undefined {
  const changes: string[] = [];
  for (const [field, words] of Object.entries(FIELD_WORDS) as Array<[keyof Subscriber, string]>) {
    if (before[field] === after[field]) continue;
    if (field === 'iban') continue;
    changes.push(`${words} from ${quote(before[field])} to ${quote(after[field])}`);
  }
  for (const reference of SUBSCRIBER_REFERENCES) {
    const from = before[reference.field];
    const to = after[reference.field];
    if (from === to) continue;
    const name = (id: number) => (id > 0 ? (names.get(reference.field)?.get(id) ?? `#${id}`) : '');
    changes.push(`${reference.noun} from ${quote(name(from))} to ${quote(name(to))}`);
  }
  if (before.iban !== after.iban)
    changes.push(`IBAN from ${maskIban(before.iban)} to ${maskIban(after.iban)}`);
  if (before.notes !== after.notes) changes.push('notes');
  if (before.inactive !== after.inactive) {
    changes.push(`still on mailing list from ${yesNo(!before.inactive)} to ${yesNo(!after.inactive)}`);
  }
  if (before.onMailChimpList !== after.onMailChimpList) {
    changes.push(
      `on newsletter list from ${yesNo(before.onMailChimpList)} to ${yesNo(after.onMailChimpList)}`,
    );
  }
  const added = after.tags.filter((tag) => !before.tags.includes(tag));
  const removed = before.tags.filter((tag) => !after.tags.includes(tag));
  const tagChanges = [
    ...(added.length ? [`added ${added.map(quote).join(', ')}`] : []),
    ...(removed.length ? [`removed ${removed.map(quote).join(', ')}`] : []),
  ];
  if (tagChanges.length) changes.push(`tags: ${tagChanges.join(', ')}`);
  return changes.length ? `Changed ${changes.join('; ')}.` : undefined;
}
