import type { ReferenceListKey } from '@back-office/contract/reference-lists';

/** A table and column that point at a reference item, counted before a delete. */
export type ReferenceUsage = { table: string; column: string; noun: string; distinctColumn?: string };

/** How one reference list is stored and worded (part 1 §2, §7 Reference data). */
export type ReferenceListDefinition = {
  key: ReferenceListKey;
  path: `/api/${string}`;
  table: string;
  singular: string;
  plural: string;
  /** Extra columns beyond id and name, by wire name. */
  extraFields: ReadonlyArray<'order' | 'symbol' | 'directDebit'>;
  orderBy: 'id' | 'name' | 'order';
  usages: ReadonlyArray<ReferenceUsage>;
};

const subscriberUsage = (column: string): ReferenceUsage => ({
  table: 'subscribers',
  column,
  noun: 'subscriber',
});

export const REFERENCE_LISTS: ReadonlyArray<ReferenceListDefinition> = [
  {
    key: 'subs',
    path: '/api/subs',
    table: 'subscription_types',
    singular: 'subscription type',
    plural: 'subscription types',
    extraFields: [],
    orderBy: 'id',
    usages: [subscriberUsage('subscription_type_id')],
  },
  {
    key: 'cats',
    path: '/api/cats',
    table: 'categories',
    singular: 'category',
    plural: 'categories',
    extraFields: [],
    orderBy: 'id',
    usages: [subscriberUsage('category_id')],
  },
  {
    key: 'ctries',
    path: '/api/ctries',
    table: 'countries',
    singular: 'country',
    plural: 'countries',
    extraFields: ['order'],
    orderBy: 'order',
    usages: [subscriberUsage('country_id')],
  },
  {
    key: 'pmethods',
    path: '/api/pmethods',
    table: 'payment_methods',
    singular: 'payment method',
    plural: 'payment methods',
    extraFields: ['directDebit'],
    orderBy: 'id',
    usages: [subscriberUsage('payment_method_id')],
  },
  {
    key: 'currencies',
    path: '/api/currencies',
    table: 'currencies',
    singular: 'currency',
    plural: 'currencies',
    extraFields: ['symbol'],
    orderBy: 'id',
    usages: [subscriberUsage('currency_id')],
  },
  {
    key: 'tags',
    path: '/api/tags',
    table: 'tags',
    singular: 'tag',
    plural: 'tags',
    extraFields: [],
    orderBy: 'name',
    usages: [{ table: 'subscriber_tags', column: 'tag_id', noun: 'subscriber' }],
  },
];
