import type {
  CollectionFileVersion,
  CollectionLineStatus,
  CollectionReturnLine,
  CollectionReturnOutcome,
  CollectionReturnsResult,
  CollectionSequenceType,
  CollectionStatus,
} from '@back-office/contract/collections';
import { ApiError } from '../../lib/api-error.ts';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import { frenchDay } from '../../lib/french-date.ts';

/** Euros in the French way: `1 234,50 €`. */
export function formatEuros(amount: number): string {
  return `${formatMoney(amount)} €`;
}

/** The words and badge colour of each status of a collection (docs/decisions/029). */
export const COLLECTION_STATUS_BADGES: Record<CollectionStatus, { label: string; color: string }> = {
  draft: { label: 'Draft', color: 'blue' },
  exported: { label: 'Exported', color: 'orange' },
  settled: { label: 'Settled', color: 'green' },
};

/** The words and badge colour of each status of a line. */
export const LINE_STATUS_BADGES: Record<CollectionLineStatus, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'blue' },
  removed: { label: 'Removed', color: 'gray' },
  collected: { label: 'Collected', color: 'green' },
  returned: { label: 'Returned', color: 'red' },
  rejected: { label: 'Rejected', color: 'red' },
};

/** The sequence types (rulebook AT-21) in words, for the title of their code. */
export const SEQUENCE_TYPE_LABELS: Record<CollectionSequenceType, string> = {
  FRST: 'First collection of the mandate',
  RCUR: 'Recurrent collection',
  OOFF: 'One-off collection',
};

/** The pain.008 versions offered, the default first. */
export const FILE_VERSION_OPTIONS: { value: CollectionFileVersion; label: string }[] = [
  { value: 'pain.008.001.08', label: 'pain.008.001.08 (current version)' },
  { value: 'pain.008.001.02', label: 'pain.008.001.02 (for banks that still require it)' },
];

/**
 * The ISO 20022 external return reason codes banks use most for SEPA direct debits (EPC173-14), in
 * words; other codes are shown as they are.
 */
const RETURN_REASONS: Record<string, string> = {
  AC01: 'wrong account number',
  AC04: 'account closed',
  AC06: 'account blocked',
  AG01: 'transaction forbidden on this account',
  AM04: 'insufficient funds',
  AM05: 'duplicate collection',
  BE05: 'creditor unknown to the bank',
  MD01: 'no valid mandate',
  MD02: 'mandate data missing or wrong',
  MD06: 'refund requested by the debtor',
  MD07: 'debtor deceased',
  MS02: 'refused by the debtor',
  MS03: 'reason not specified',
  RR04: 'regulatory reason',
  SL01: 'specific service offered by the debtor agent',
};

/** A reason code with its words when known: `AC04 (account closed)`, else the code. */
export function reasonText(code: string): string {
  const words = RETURN_REASONS[code];
  return words ? `${code} (${words})` : code;
}

/** A collection as named in titles and toasts: "the collection of 23/03/2031". */
export function collectionName(dueDate: string): string {
  return `the collection of ${frenchDay(dueDate)}`;
}

/** "1 debit" / "12 debits". */
export function debitCountText(count: number): string {
  return count === 1 ? '1 debit' : `${formatNumber(count)} debits`;
}

/** What each outcome of a returned transaction is called. */
export const RETURN_OUTCOME_LABELS: Record<CollectionReturnOutcome, string> = {
  applied: 'Applied',
  alreadyApplied: 'Already applied',
  notSent: 'Not sent',
  unknown: 'Unknown',
};

/**
 * The counts of a return file import: "2 applied, 0 already applied, 1 not sent, 0 unknown" (French
 * number format).
 */
export function returnsSummaryText(result: CollectionReturnsResult): string {
  return (['applied', 'alreadyApplied', 'notSent', 'unknown'] as const)
    .map((outcome) => `${formatNumber(result[outcome])} ${RETURN_OUTCOME_LABELS[outcome].toLowerCase()}`)
    .join(', ');
}

/**
 * What a return did besides marking the line: "donation cancelled", "receipt n° 12 should be
 * cancelled", "mandate suspended"; for a line not found, why nothing changed.
 */
export function returnConsequences(line: CollectionReturnLine): string[] {
  const consequences: string[] = [];
  if (line.outcome === 'unknown') consequences.push('no collection line has this reference');
  if (line.outcome === 'notSent') consequences.push('this line was never in an exported file');
  if (line.donation === 'cancelled') consequences.push('donation cancelled');
  if (line.donation === 'receipted') {
    consequences.push(
      line.receiptNumber === undefined
        ? 'its receipt should be cancelled'
        : `receipt n° ${line.receiptNumber} should be cancelled`,
    );
  }
  if (line.mandateSuspended) consequences.push('mandate suspended');
  return consequences;
}

/**
 * The server's sentence for a refusal (a 4xx problem document's `detail`, e.g. "The collection 3 is
 * settled already."), to go in the error toast; undefined otherwise (server faults stay unexplained).
 */
export function refusalReason(error: unknown): string | undefined {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.detail : undefined;
}
