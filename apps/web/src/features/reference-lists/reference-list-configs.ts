import type { ReferenceListKey } from '@back-office/contract/reference-lists';
import { REFERENCE_LISTS } from '../../entities/reference-lists/index.ts';

/**
 * How one reference list is shown and worded (part 1 §2 Reference-data lists, §5, §8). One generic
 * screen serves all six lists; this is the only thing that differs between them. The texts are
 * written out in full (not built from the singular) so that each one reads exactly as the spec says.
 */
export type ReferenceListConfig = {
  key: ReferenceListKey;
  /** Collection path of the API, e.g. `/api/subs` (part 1 §7 Reference data). */
  apiPath: `/api/${string}`;
  heading: string;
  addButton: string;
  addTitle: string;
  editTitle: string;
  namePlaceholder: string;
  /** Currencies: a Symbol field, and rows read `name (symbol)`. */
  withSymbol: boolean;
  /** Payment methods: a Direct debit switch (part 2's donation search filters on it). */
  withDirectDebit: boolean;
  /** Countries: every create and edit carries `order: 100` (part 1 §4). */
  withOrder: boolean;
  /** Middle parts of the error toasts (part 1 §8 Lookup lists); saving covers create and update. */
  errors: { load: string; save: string; delete: string };
};

/** Subscription Types, route subs (part 1 §2 Reference-data lists). */
export const subscriptionTypesList: ReferenceListConfig = {
  key: 'subs',
  apiPath: REFERENCE_LISTS.subs.path,
  heading: 'Subscription Types',
  addButton: 'Add New Subscription Type',
  addTitle: 'Add New Subscription Type',
  editTitle: 'Edit Subscription Type',
  namePlaceholder: 'Subscription type name.',
  withSymbol: false,
  withDirectDebit: false,
  withOrder: false,
  errors: {
    load: REFERENCE_LISTS.subs.loadError,
    save: 'creating a subscription type',
    delete: 'deleting a subscription type',
  },
};

/** Categories (part 1 §2 Reference-data lists). */
export const categoriesList: ReferenceListConfig = {
  key: 'cats',
  apiPath: REFERENCE_LISTS.cats.path,
  heading: 'Categories',
  addButton: 'Add New Category',
  addTitle: 'Add New Category',
  editTitle: 'Edit Category',
  namePlaceholder: 'Category name.',
  withSymbol: false,
  withDirectDebit: false,
  withOrder: false,
  errors: {
    load: REFERENCE_LISTS.cats.loadError,
    save: 'creating a category',
    delete: 'deleting a category',
  },
};

/** Countries (part 1 §2 Reference-data lists): no minimum name length, order 100. */
export const countriesList: ReferenceListConfig = {
  key: 'ctries',
  apiPath: REFERENCE_LISTS.ctries.path,
  heading: 'Countries',
  addButton: 'Add New Country',
  addTitle: 'Add New Country',
  editTitle: 'Edit Country',
  namePlaceholder: 'Country name.',
  withSymbol: false,
  withDirectDebit: false,
  withOrder: true,
  errors: {
    load: REFERENCE_LISTS.ctries.loadError,
    save: 'creating a country',
    delete: 'deleting a country',
  },
};

/** Payment Methods (part 1 §2 Reference-data lists), with the direct-debit flag (part 2 §2.4 filters on it). */
export const paymentMethodsList: ReferenceListConfig = {
  key: 'pmethods',
  apiPath: REFERENCE_LISTS.pmethods.path,
  heading: 'Payment Methods',
  addButton: 'Add New Payment Method',
  addTitle: 'Add New Payment Method',
  editTitle: 'Edit Payment Method',
  namePlaceholder: 'Payment method name.',
  withSymbol: false,
  withDirectDebit: true,
  withOrder: false,
  errors: {
    load: REFERENCE_LISTS.pmethods.loadError,
    save: 'creating a payment method',
    delete: 'deleting a payment method',
  },
};

/** Currencies (part 1 §2 Reference-data lists): name and symbol. */
export const currenciesList: ReferenceListConfig = {
  key: 'currencies',
  apiPath: REFERENCE_LISTS.currencies.path,
  heading: 'Currencies',
  addButton: 'Add New Currency',
  addTitle: 'Add New Currency',
  editTitle: 'Edit Currency',
  namePlaceholder: 'Currency name.',
  withSymbol: true,
  withDirectDebit: false,
  withOrder: false,
  errors: {
    load: REFERENCE_LISTS.currencies.loadError,
    save: 'creating a currency',
    delete: 'deleting a currency',
  },
};

/** Tags (part 1 §2 Reference-data lists): name required only; the server sorts them by name. */
export const tagsList: ReferenceListConfig = {
  key: 'tags',
  apiPath: REFERENCE_LISTS.tags.path,
  heading: 'Tags',
  addButton: 'Add New Tag',
  addTitle: 'Add New Tag',
  editTitle: 'Edit Tag',
  namePlaceholder: 'Tag name.',
  withSymbol: false,
  withDirectDebit: false,
  withOrder: false,
  errors: {
    load: REFERENCE_LISTS.tags.loadError,
    save: 'creating a tag',
    delete: 'deleting a tag',
  },
};
