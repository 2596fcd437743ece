import { z } from 'zod';

/**
 * Background jobs (docs/decisions/013; not in the spec; Administrator only): the work that outlives a
 * request, shown on the Jobs screen.
 */

/**
 * What a job does. `mail.outbox` sends the queued emails, `auth.purge` deletes old sign-in records and
 * `exports.purge` the export files past their time; these repeat on their own. `receipts.annual-run`
 * works through one annual receipt run; `exports.file` writes one large export (contract `exports`);
 * `imports.commit` writes one import into the register (contract `imports`); `duplicates.scan` looks for
 * likely duplicates in the whole register (contract `duplicates`); `personal-data.purge`, repeating, removes
 * the personal data that kept documents of anonymised subscribers carry once past their retention
 * (docs/decisions/019); `imports.expire`, repeating, deletes the rows of the files of imports 30 days old
 * (docs/decisions/018); `mandates.expire`, repeating, expires the SEPA mandates not used for 36 months
 * (docs/decisions/027); `subscribers.name-counts`, repeating, folds the delta rows of the counts of last
 * names that searches sum.
 */
export const jobKindSchema = z.enum([
  'mail.outbox',
  'auth.purge',
  'receipts.annual-run',
  'exports.file',
  'exports.purge',
  'imports.commit',
  'duplicates.scan',
  'personal-data.purge',
  'imports.expire',
  'mandates.expire',
  'subscribers.name-counts',
]);
export type JobKind = z.infer<typeof jobKindSchema>;

/**
 * `queued`: waiting for its time or a free worker (a repeating job waits here between passes);
 * `running`: a server process holds it; then `succeeded`, `failed` (no attempt left) or `cancelled`.
 */
export const jobStateSchema = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
export type JobState = z.infer<typeof jobStateSchema>;

/** The names staff read for each kind of job. */
export const JOB_KIND_LABELS: Record<JobKind, string> = {
  'mail.outbox': 'Mail outbox',
  'auth.purge': 'Purge of old sign-in records',
  'receipts.annual-run': 'Annual receipts',
  'exports.file': 'Export',
  'exports.purge': 'Purge of old export files',
  'imports.commit': 'Import',
  'duplicates.scan': 'Search for duplicates',
  'personal-data.purge': 'Purge of personal data past retention',
  'imports.expire': 'Deletion of the rows of old imports',
  'mandates.expire': 'Expiry of SEPA mandates unused for 36 months',
  'subscribers.name-counts': 'Folding of the counts of last names',
};

/**
 * A job as `GET /api/jobs` lists it. `progress` counts units of work (`done` of `total`: emails,
 * donors), null until the job reports any; date-times are ISO 8601; `startedBy` is the full name of
 * the user who started it, null for the jobs the server schedules itself; `repeats` is true for those;
 * `cancellable` is false for repeating jobs and for jobs that are over.
 */
export const jobSchema = z.object({
  id: z.number().int(),
  kind: jobKindSchema,
  title: z.string(),
  state: jobStateSchema,
  progress: z.object({ done: z.number().int(), total: z.number().int() }).nullable(),
  startedBy: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  runAfter: z.string(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  lastError: z.string().nullable(),
  cancelRequested: z.boolean(),
  repeats: z.boolean(),
  cancellable: z.boolean(),
});
export type Job = z.infer<typeof jobSchema>;

/** `GET /api/jobs`: the repeating jobs, then the others newest first (at most 50). */
export const jobListSchema = z.array(jobSchema);
