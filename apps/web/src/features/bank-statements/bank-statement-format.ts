import type {
  BankStatementEntry,
  StatementEntryStatus,
  StatementImport,
} from '@back-office/contract/bank-statements';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import { frenchDay } from '../../lib/french-date.ts';

/** The statuses of the review queue's tabs, in their order, with their labels (docs/decisions/033). */
export const ENTRY_STATUS_LABELS: Record<StatementEntryStatus, string> = {
  unmatched: 'To review',
  matched: 'Matched',
  assigned: 'Assigned',
  dismissed: 'Dismissed',
  listed: 'Listed',
};

/** An entry's amount in French format with its ISO currency: `1 234,50 CHF`; a debit is negative. */
export function entryAmountText(
  entry: Pick<BankStatementEntry, 'amount' | 'currency' | 'direction'>,
): string {
  const sign = entry.direction === 'debit' ? '−' : '';
  return `${sign}${formatMoney(entry.amount)} ${entry.currency}`;
}

/** An entry's booking day as `dd/mm/yyyy`. */
export function entryDateText(entry: Pick<BankStatementEntry, 'bookingDate'>): string {
  return frenchDay(entry.bookingDate);
}

/**
 * What became of a decided entry, in words: "Payment of the sale #12", "Donation", "Dismissed: {reason}",
 * with who decided it; empty for an entry still to review.
 */
export function entryOutcomeText(entry: BankStatementEntry): string {
  const by = entry.decidedBy ? ` (${entry.decidedBy})` : '';
  if (entry.status === 'dismissed') return `Dismissed: ${entry.dismissReason ?? ''}${by}`;
  if (entry.saleRef !== undefined) return `Payment of the sale #${entry.saleRef}${by}`;
  if (entry.donationId !== undefined) return `Donation${by}`;
  if (entry.status === 'listed') return entry.direction === 'debit' ? 'Debit' : 'Return or reversal';
  return '';
}

/** The five counts of an import as one sentence, French number format. */
export function importSummaryText(result: StatementImport): string {
  return [
    `${formatNumber(result.entries)} entries read`,
    `${formatNumber(result.matched)} matched`,
    `${formatNumber(result.unmatched)} to review`,
    `${formatNumber(result.duplicates)} already imported`,
    `${formatNumber(result.listed)} listed`,
  ].join(', ');
}
