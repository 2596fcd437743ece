import type { JobKind, JobState } from '@back-office/contract/jobs';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The background jobs (docs/decisions/013): one row per job, claimed with `FOR UPDATE SKIP LOCKED` by
 * whichever server process is free, held under a lease that the process renews while it works.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    kind: text().$type<JobKind>().notNull(),
    /** What staff read on the Jobs screen, e.g. "Annual receipts 2025". */
    title: text().notNull(),
    state: text().$type<JobState>().notNull().default('queued'),
    /** The handler's input, e.g. `{ runId: 3 }`. */
    payload: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** At most one queued or running job per key: a repeating job, or "the annual run of 2025". */
    singletonKey: text(),
    /** A repeating job goes back to `queued` this long after each pass instead of ending. */
    repeatEveryMs: integer(),
    progressDone: integer(),
    progressTotal: integer(),
    attempts: integer().notNull().default(0),
    maxAttempts: integer().notNull().default(5),
    /** How long a claim lasts without renewal; a process that stops renewing it lets another take over. */
    leaseSeconds: integer().notNull().default(60),
    runAfter: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lockedBy: text(),
    lockedUntil: timestamp({ withTimezone: true, mode: 'date' }),
    cancelRequested: boolean().notNull().default(false),
    /** Full name of the user who started the job; null for the jobs the server schedules. */
    startedBy: text(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    startedAt: timestamp({ withTimezone: true, mode: 'date' }),
    finishedAt: timestamp({ withTimezone: true, mode: 'date' }),
    lastError: text(),
  },
  (table) => [
    check(
      'jobs_state_check',
      sql`${table.state} in ('queued', 'running', 'succeeded', 'failed', 'cancelled')`,
    ),
    index('jobs_due_idx').on(table.runAfter).where(sql`${table.state} = 'queued'`),
    index('jobs_running_idx').on(table.lockedUntil).where(sql`${table.state} = 'running'`),
    uniqueIndex('jobs_singleton_key_idx')
      .on(table.singletonKey)
      .where(sql`${table.state} in ('queued', 'running')`),
  ],
);

export type JobRow = typeof jobs.$inferSelect;
