import type { ImportField, ImportMapping, ImportOptions } from '@back-office/contract/imports';
import { SUBSCRIBER_IMPORT_FIELDS } from '@back-office/contract/imports';
import { type SaveSubscriber, saveSubscriberInputSchema } from '@back-office/contract/subscribers';
import { foldForSearch } from '../../lib/search-text.ts';
import type { ReferenceField } from '../subscribers/subscriber-references.repository.ts';

/** The import fields that name an item of a reference list, and the subscriber field each fills. */
export const REFERENCE_FIELDS = {
  country: 'countryId',
  paymentMethod: 'paymentMethodId',
  category: 'categoryId',
  subscriptionType: 'subscriptionTypeId',
  currency: 'currencyId',
} as const satisfies Record<string, ReferenceField>;
export type ReferenceImportField = keyof typeof REFERENCE_FIELDS;
/** The lists an import resolves names in: the five reference lists and the tags. */
export type ImportList = ReferenceImportField | 'tags';

const NOUNS: Record<ImportList, string> = {
  country: 'country',
  paymentMethod: 'payment method',
  category: 'category',
  subscriptionType: 'subscription type',
  currency: 'currency',
  tags: 'tag',
};

/** Items of each list by folded name (`foldForSearch`): how a cell's name finds its id. */
export type ReferenceLookup = Record<ImportList, Map<string, number>>;

/** A name a row uses that its list lacks (created by the commit when the import allows it). */
export type MissingReference = { list: ImportList; name: string };

/** One row read: its mapped cells as written, the save payload, the problems per field, the names to create. */
export type ReadSubscriberRow = {
  values: Record<string, string>;
  input: SaveSubscriber | undefined;
  errors: Array<{ field: string; message: string }>;
  missing: MissingReference[];
};

/** Id a missing reference stands in with during a dry run that may create it. */
const TO_BE_CREATED = 2_147_483_647;

const TRUE_WORDS = new Set(['true', 'yes', 'oui', 'vrai', 'y', 'o', '1', 'x']);
const FALSE_WORDS = new Set(['false', 'no', 'non', 'faux', 'n', '0', '-']);

/** Headers and aliases compared without case, accents, spaces or punctuation. */
export const headerKey = (value: string) => foldForSearch(value).replace(/[^a-z0-9]/g, '');

/**
 * The automatic mapping of a file's headers: each field gets the first column whose header is one of
 * its aliases (French and English; our own export's headers first), compared by {@link headerKey}.
 */
export function guessMapping(fields: readonly ImportField[], headers: string[]): ImportMapping {
  const columnByKey = new Map<string, number>();
  headers.forEach((header, index) => {
    const key = headerKey(header);
    if (key !== '' && !columnByKey.has(key)) columnByKey.set(key, index);
  });
  const used = new Set<number>();
  const mapping: ImportMapping = {};
  for (const field of fields) {
    const column = field.aliases
      .map((alias) => columnByKey.get(headerKey(alias)))
      .find((index) => index !== undefined);
    mapping[field.field] = column !== undefined && !used.has(column) ? column : null;
    if (column !== undefined) used.add(column);
  }
  return mapping;
}

/** `true`/`false` of a yes/no cell, undefined when the cell says neither. */
export function readBoolean(cell: string): boolean | undefined {
  const word = foldForSearch(cell);
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/**
 * A number written with `decimalSeparator` (or with `.`, as spreadsheets give it), with spaces,
 * non-breaking spaces or apostrophes between thousands (`1 234,50`, `1'234.50`); NaN when it is not one.
 */
export function readNumber(cell: string, decimalSeparator: ',' | '.'): number {
  const compact = cell.replace(/[\s\u00a0\u202f']/g, '');
  const normalised = decimalSeparator === ',' ? compact.replace(',', '.') : compact;
  return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(normalised) ? Number(normalised) : Number.NaN;
}

const DATE_PATTERNS: Record<ImportOptions['dateFormat'], RegExp> = {
  'DD/MM/YYYY': /^(?<day>\d{1,2})[/.-](?<month>\d{1,2})[/.-](?<year>\d{4})$/,
  'MM/DD/YYYY': /^(?<month>\d{1,2})[/.-](?<day>\d{1,2})[/.-](?<year>\d{4})$/,
  'YYYY-MM-DD': /^(?<year>\d{4})-(?<month>\d{1,2})-(?<day>\d{1,2})$/,
};

/**
 * A date cell as `YYYY-MM-DD`: in the import's `dateFormat`, or already `YYYY-MM-DD` (an XLSX date
 * cell). Undefined when it is neither or not a day of the calendar (31/02/2024).
 */
export function readDate(cell: string, format: ImportOptions['dateFormat']): string | undefined {
  const match = DATE_PATTERNS[format].exec(cell) ?? DATE_PATTERNS['YYYY-MM-DD'].exec(cell);
  if (!match?.groups) return undefined;
  const year = Number(match.groups.year);
  const month = Number(match.groups.month);
  const day = Number(match.groups.day);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined;
  }
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Tag names of a cell: separated by `,` or `;`, blanks dropped. */
export const splitTags = (cell: string) =>
  cell
    .split(/[,;]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/** The save payload's field each contract error path belongs to, in the import's words. */
const FIELD_OF_PATH: Record<string, string> = {
  countryId: 'country',
  paymentMethodId: 'paymentMethod',
  categoryId: 'category',
  subscriptionTypeId: 'subscriptionType',
  currencyId: 'currency',
  inactive: 'stillOnMailingList',
};

/**
 * Reads one data row of a subscriber import into the save payload of `POST /api/subscribers` (part 2
 * §3, validated by the same schema), with an error per unreadable cell named by its import field. Names
 * of reference items and tags resolve through `lookup`, accent- and case-insensitively; a name the list
 * lacks is an error unless `options.createMissingReferences` (never for a currency), in which case it is returned in `missing`
 * and the payload holds a stand-in id. With `today` (`YYYY-MM-DD`, the organisation's day), an email
 * consent dated after it is an error, as the subscriber form's save answers.
 */
export function readSubscriberRow(
  cells: readonly string[],
  mapping: ImportMapping,
  options: ImportOptions,
  lookup: ReferenceLookup,
  today?: string,
): ReadSubscriberRow {
  const values: Record<string, string> = {};
  const errors: ReadSubscriberRow['errors'] = [];
  const missing: MissingReference[] = [];
  const payload: Record<string, unknown> = {};

  const resolve = (list: ImportList, name: string, field: string): number | undefined => {
    const id = lookup[list].get(foldForSearch(name));
    if (id !== undefined) return id;
    // A currency needs its symbol and place in the money rules: it is never created from a name.
    if (options.createMissingReferences && list !== 'currency') {
      missing.push({ list, name });
      return TO_BE_CREATED;
    }
    errors.push({ field, message: `No ${NOUNS[list]} is named "${name}".` });
    return undefined;
  };

  for (const { field, type } of SUBSCRIBER_IMPORT_FIELDS) {
    const column = mapping[field];
    if (column === null || column === undefined) continue;
    const cell = cells[column] ?? '';
    values[field] = cell;
    if (cell === '') continue;
    switch (type) {
      case 'text':
        payload[field] = cell;
        break;
      case 'boolean': {
        const value = readBoolean(cell);
        if (value === undefined) errors.push({ field, message: 'Write yes or no (oui or non).' });
        else if (field === 'stillOnMailingList') payload.inactive = !value;
        else payload[field] = value;
        break;
      }
      case 'number':
      case 'integer': {
        const value = readNumber(cell, options.decimalSeparator);
        if (Number.isNaN(value)) {
          errors.push({ field, message: type === 'integer' ? 'Write a whole number.' : 'Write a number.' });
        } else payload[field] = value;
        break;
      }
      case 'date': {
        const value = readDate(cell, options.dateFormat);
        if (value === undefined) errors.push({ field, message: `Dates are written ${options.dateFormat}.` });
        else if (field === 'emailConsentDate' && today !== undefined && value > today) {
          errors.push({ field, message: 'The email consent date cannot be in the future.' });
        } else payload[field] = value;
        break;
      }
      case 'reference': {
        const list = field as ReferenceImportField;
        const id = resolve(list, cell, field);
        if (id !== undefined) payload[REFERENCE_FIELDS[list]] = id;
        break;
      }
      case 'tags':
        payload.tags = splitTags(cell).filter((tag) => resolve('tags', tag, field) !== undefined);
        break;
    }
  }
  if (payload.currencyId === undefined && !errors.some((error) => error.field === 'currency')) {
    if (options.defaultCurrencyId !== null) payload.currencyId = options.defaultCurrencyId;
    else
      errors.push({
        field: 'currency',
        message: 'No currency: map a currency column or choose a default currency.',
      });
  }

  const parsed = saveSubscriberInputSchema.safeParse(payload);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = String(issue.path[0] ?? '');
      const field = FIELD_OF_PATH[path] ?? path;
      if (!errors.some((error) => error.field === field)) errors.push({ field, message: issue.message });
    }
  }
  // Tags are checked by name here; the stand-in ids of names to create are not real ids.
  return { values, input: errors.length === 0 && parsed.success ? parsed.data : undefined, errors, missing };
}
