import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { ApiError } from '../../../lib/api-error.ts';

/**
 * `DELETE /api/donations/{id}` (part 2 §7 Donations): 204, or 409 `donations.receipted` when a tax
 * receipt covers the donation (its `detail` says which receipt).
 */
export function deleteDonation(id: number): Promise<void> {
  return apiRequest(`/api/donations/${id}`, { method: 'DELETE' });
}

/**
 * The sentence to show people when a delete was refused: the server's reason of a conflict (a receipt
 * covers the donation), never other error details (part 2 §8).
 */
export function deleteRefusalReason(error: unknown): string | undefined {
  if (error instanceof ApiError && error.status === 409) return error.detail;
  return undefined;
}

/** Deletes one donation; the list drops the row only after the server said yes. */
export function useDeleteDonation() {
  return useMutation({ mutationFn: deleteDonation });
}

/** The outcome of deleting several donations one by one (part 2 §4 bulk delete). */
export type BulkDeleteOutcome<Row> = {
  deleted: Row[];
  failed: Array<{ row: Row; reason: string | undefined }>;
};

/**
 * Deletes each of `rows` in turn (part 2 §2.4 Delete Selected Donations, §4: "deletes each selected
 * donation, reducing the count") and reports which were deleted and which were refused, with the
 * server's reason when it gave one for people.
 */
export async function deleteDonations<Row extends { id: number }>(
  rows: readonly Row[],
): Promise<BulkDeleteOutcome<Row>> {
  const outcome: BulkDeleteOutcome<Row> = { deleted: [], failed: [] };
  for (const row of rows) {
    try {
      await deleteDonation(row.id);
      outcome.deleted.push(row);
    } catch (error) {
      outcome.failed.push({ row, reason: deleteRefusalReason(error) });
    }
  }
  return outcome;
}
