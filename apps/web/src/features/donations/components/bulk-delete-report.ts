import type { DonationListItem } from '@back-office/contract/donations';
import type { BulkDeleteOutcome } from '../api/delete-donation.ts';
import { describeDonation, donationDeletedMessage } from './donation-format.ts';

/** The toast that reports a bulk delete (part 2 §4: "deletes each selected donation"). */
export type BulkDeleteReport = { kind: 'success'; message: string } | { kind: 'error'; reason: string };

function withoutFinalStop(text: string): string {
  return text.trim().replace(/[.!]+$/, '');
}

/**
 * One message for a bulk delete: the §8 sentence when one donation was deleted, "{n} donations were
 * deleted successfully!" when all were; otherwise how many were deleted and which were not, with the
 * server's reason (e.g. the tax receipt that covers it), to go into the "deleting a donation" error toast.
 */
export function bulkDeleteReport(outcome: BulkDeleteOutcome<DonationListItem>): BulkDeleteReport {
  const total = outcome.deleted.length + outcome.failed.length;
  if (outcome.failed.length === 0) {
    const [only] = outcome.deleted;
    if (outcome.deleted.length === 1 && only)
      return { kind: 'success', message: donationDeletedMessage(only) };
    return { kind: 'success', message: `${outcome.deleted.length} donations were deleted successfully!` };
  }
  const done =
    outcome.deleted.length === 1
      ? `1 of the ${total} selected donations was deleted`
      : `${outcome.deleted.length} of the ${total} selected donations were deleted`;
  const refused = outcome.failed
    .map(({ row, reason }) => `${describeDonation(row)}${reason ? ` (${withoutFinalStop(reason)})` : ''}`)
    .join('; ');
  return { kind: 'error', reason: `${done}. Not deleted: ${refused}.` };
}
