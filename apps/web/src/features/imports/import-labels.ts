import {
  IMPORT_FIELDS,
  type ImportKind,
  type ImportRowStatus,
  type ImportStatus,
} from '@back-office/contract/imports';
import { formatNumber } from '../../lib/format.ts';

/** A label with the colour of its dot badge (the text says it, the colour only adds to it). */
export type StatusLabel = { label: string; color: string };

export const IMPORT_KIND_LABELS: Record<ImportKind, string> = {
  subscribers: 'Subscribers',
  donations: 'Donations',
  sales: 'Sales',
  products: 'Products',
};

/** What one record an import writes is called, for counts ("3 sales created"). */
export const IMPORT_RECORD_NOUNS: Record<ImportKind, string> = {
  subscribers: 'subscriber',
  donations: 'donation',
  sales: 'sale',
  products: 'product',
};

export const IMPORT_STATUS_LABELS: Record<ImportStatus, StatusLabel> = {
  uploaded: { label: 'Uploaded', color: 'gray' },
  checked: { label: 'Checked', color: 'blue' },
  queued: { label: 'Waiting', color: 'gray' },
  running: { label: 'Running', color: 'blue' },
  committed: { label: 'Imported', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  undone: { label: 'Undone', color: 'orange' },
  expired: { label: 'Expired', color: 'gray' },
};

export const ROW_STATUS_LABELS: Record<ImportRowStatus, StatusLabel> = {
  valid: { label: 'Valid', color: 'green' },
  invalid: { label: 'Invalid', color: 'red' },
  duplicate: { label: 'Duplicate', color: 'orange' },
};

const MATCH_REASON_LABELS: Record<string, string> = {
  email: 'same email',
  iban: 'same IBAN',
  'name+postcode': 'same name and postcode',
  file: 'repeats an earlier row of the file',
  'same donor, date and amount': 'a donation of this donor on that day for that amount exists',
  'same sale number': 'a sale of this number exists',
  'same name': 'a product of this name exists',
};

/** Why a row is a duplicate, e.g. "same email, same IBAN". */
export function matchReasonsText(reasons: readonly string[]): string {
  return reasons.map((reason) => MATCH_REASON_LABELS[reason] ?? reason).join(', ');
}

/** The label of a field of `kind` ("First name"), or its name when the contract does not list it. */
export function fieldLabel(kind: ImportKind, field: string): string {
  return IMPORT_FIELDS[kind].find((candidate) => candidate.field === field)?.label ?? field;
}

/** A count with its noun, singular for one: "1 row", "1 234 rows" (French number format). */
export function countText(count: number, noun: string): string {
  return `${formatNumber(count)} ${count === 1 ? noun : `${noun}s`}`;
}
