import { z } from 'zod';

/**
 * The annual receipt run (not in the spec; Administrator only): issuing and emailing the
 * annual receipts of a year to every donor of that year, as a background job.
 */

/** `POST /api/donations/annual-runs` body: the calendar year whose donations the receipts cover. */
export const startAnnualRunInputSchema = z.object({
  year: z
    .number({ message: 'The year is required.' })
    .int({ message: 'The year must be between 1900 and 2999.' })
    .min(1900, { message: 'The year must be between 1900 and 2999.' })
    .max(2999, { message: 'The year must be between 1900 and 2999.' }),
});
export type StartAnnualRunInput = z.infer<typeof startAnnualRunInputSchema>;

/**
 * A run's progress (`cancelled`: stopped from the Jobs screen, its pending donors left undone): counts of donors per state (`pending` still to do, `emailed`, `toPrint` for donors
 * without an email address, `failed`); `startedAt`/`finishedAt` are ISO date-times. What it did:
 * `receiptsIssued` (new receipt numbers), `alreadyIssued` (donors whose annual receipt existed before,
 * sent or printed again), `skippedSingleReceipts` (donors left out: each gift of the year already has
 * its own receipt), and `failures`, the reasons of the failed donors with how many each.
 */
export const annualRunProgressSchema = z.object({
  id: z.number().int(),
  year: z.number().int(),
  status: z.enum(['running', 'done', 'cancelled']),
  startedBy: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  total: z.number().int(),
  pending: z.number().int(),
  emailed: z.number().int(),
  toPrint: z.number().int(),
  failed: z.number().int(),
  receiptsIssued: z.number().int(),
  alreadyIssued: z.number().int(),
  skippedSingleReceipts: z.number().int(),
  failures: z.array(z.object({ reason: z.string(), count: z.number().int() })),
});
export type AnnualRunProgress = z.infer<typeof annualRunProgressSchema>;
