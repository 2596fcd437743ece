import { REFERENCE_LIST_KEYS, type ReferenceListKey } from '@back-office/contract/reference-lists';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { subscribers, subscriberTags } from '../subscribers/subscribers.table.ts';
import {
  categories,
  countries,
  currencies,
  paymentMethods,
  subscriptionTypes,
  tags,
} from './reference-lists.table.ts';

/** A column that points at a reference item, counted before a delete, and the noun of its records. */
export type ReferenceUsage = { column: AnyPgColumn; noun: string };

/** How one reference list is stored and worded (part 1 §2, §7 Reference data). */
export type ReferenceListDefinition = {
  key: ReferenceListKey;
  /** `/api/<key>`, the list's route (part 1 §7 Reference data). */
  path: `/api/${ReferenceListKey}`;
  table: PgTable;
  singular: string;
  plural: string;
  /** Extra columns beyond id and name, by wire name. */
  extraFields: ReadonlyArray<'order' | 'symbol' | 'directDebit' | 'isoCode'>;
  orderBy: 'id' | 'name' | 'order';
  usages: ReadonlyArray<ReferenceUsage>;
};

type DefinitionOf<K extends ReferenceListKey> = Omit<ReferenceListDefinition, 'key' | 'path'> & { key?: K };

/** Every list, by key: a key of the contract without a definition (or the reverse) does not compile. */
const DEFINITIONS: { [K in ReferenceListKey]: DefinitionOf<K> } = {
  subs: {
    table: subscriptionTypes,
    singular: 'subscription type',
    plural: 'subscription types',
    extraFields: [],
    orderBy: 'id',
    usages: [{ column: subscribers.subscriptionTypeId, noun: 'subscriber' }],
  },
  cats: {
    table: categories,
    singular: 'category',
    plural: 'categories',
    extraFields: [],
    orderBy: 'id',
    usages: [{ column: subscribers.categoryId, noun: 'subscriber' }],
  },
  ctries: {
    table: countries,
    singular: 'country',
    plural: 'countries',
    extraFields: ['order', 'isoCode'],
    orderBy: 'order',
    usages: [{ column: subscribers.countryId, noun: 'subscriber' }],
  },
  pmethods: {
    table: paymentMethods,
    singular: 'payment method',
    plural: 'payment methods',
    extraFields: ['directDebit'],
    orderBy: 'id',
    usages: [{ column: subscribers.paymentMethodId, noun: 'subscriber' }],
  },
  currencies: {
    table: currencies,
    singular: 'currency',
    plural: 'currencies',
    extraFields: ['symbol', 'isoCode'],
    orderBy: 'id',
    usages: [{ column: subscribers.currencyId, noun: 'subscriber' }],
  },
  tags: {
    table: tags,
    singular: 'tag',
    plural: 'tags',
    extraFields: [],
    orderBy: 'name',
    usages: [{ column: subscriberTags.tagId, noun: 'subscriber' }],
  },
};

/** The reference lists in the contract's order. */
export const REFERENCE_LISTS: ReadonlyArray<ReferenceListDefinition> = REFERENCE_LIST_KEYS.map((key) => ({
  ...DEFINITIONS[key],
  key,
  path: `/api/${key}` as const,
}));
