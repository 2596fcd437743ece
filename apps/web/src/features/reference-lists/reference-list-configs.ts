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
  /** Countries and currencies: an ISO code field, and the code on each row (docs/decisions/022). */
  isoCode: IsoCodeField | null;
  /** Middle parts of the error toasts (part 1 §8 Lookup lists); saving covers create and update. */
  errors: { load: string; save: string; delete: string };
};

/** The ISO code field of a list: its standard, length and an example, as the form describes it. */
export type IsoCodeField = { description: string; placeholder: string; length: number };

/** Countries: ISO 3166-1 alpha-2; tax receipts are chosen by the donor's country code. */
const COUNTRY_ISO_CODE: IsoCodeField = {
  description:
    'ISO 3166-1 alpha-2, two capital letters (FR, CH). Tax receipts are chosen by the donor’s country: a Cerfa for FR, an attestation for CH.',
  placeholder: 'FR',
  length: 2,
};

/** Currencies: ISO 4217. */
const CURRENCY_ISO_CODE: IsoCodeField = {
  description: 'ISO 4217, three capital letters (EUR, CHF).',
  placeholder: 'EUR',
  length: 3,
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
  isoCode: null,
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
  isoCode: null,
  errors: {
    load: REFERENCE_LISTS.cats.loadError,
    save: 'creating a category',
    delete: 'deleting a category',
  },
};

/** Countries (part 1 §2 Reference-data lists): no minimum name length, order 100, an ISO 3166-1 code. */
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
  isoCode: COUNTRY_ISO_CODE,
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
  isoCode: null,
  errors: {
    load: REFERENCE_LISTS.pmethods.loadError,
    save: 'creating a payment method',
    delete: 'deleting a payment method',
  },
};

/** Currencies (part 1 §2 Reference-data lists): name, symbol and an ISO 4217 code. */
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
  isoCode: CURRENCY_ISO_CODE,
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
  isoCode: null,
  errors: {
    load: REFERENCE_LISTS.tags.loadError,
    save: 'creating a tag',
    delete: 'deleting a tag',
  },
};
