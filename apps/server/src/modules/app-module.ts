import type { JobKind } from '@back-office/contract/jobs';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import type { JobsRepository } from './jobs/jobs.repository.ts';
import type { JobHandler, RepeatOptions } from './jobs/jobs.runner.ts';
import type { QueuedCancelHooks } from './jobs/jobs.service.ts';

/**
 * What every module gets from `buildApp` (docs/architecture.md): the database, the clock, the
 * configuration, the organisation's time zone, and the ways to start background work.
 */
export type ModuleContext = {
  db: Database;
  /**
   * Where the exports and the dashboard read: the read replica of `DATABASE_REPLICA_URL`, else `db`. It
   * may lag behind `db` by a moment, so nothing that is about to write reads here.
   */
  readDb: Database;
  clock: Clock;
  config: Config;
  /** IANA zone of the organisation's calendar days (docs/decisions/012). */
  timeZone: string;
  /** Queues jobs in the caller's transaction, and asks a job of one's own to stop. */
  jobs: Pick<JobsRepository, 'enqueue' | 'requestCancel'>;
  /** Asks the runner to look for work of `kind` now (after a commit that queued some). */
  nudgeJobs: (kind: JobKind) => void;
  /** Call after a transaction that queued mail has committed: wakes the mail outbox job. */
  onMailQueued: () => void;
};

/** The Fastify instance modules register their routes on (zod schemas). */
export type AppInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * A background job kind a module handles; `repeat` makes it a job the server schedules itself;
 * `maxRunning` caps how many of the kind a process runs at once (so they leave room for the others).
 */
export type ModuleJob = {
  kind: JobKind;
  handler: JobHandler;
  repeat?: RepeatOptions;
  maxRunning?: number;
};

/**
 * A module as `buildApp` composes it: `createXModule(context, needs)` builds its repositories and
 * services, and returns what other modules use, its routes and its jobs.
 */
export type AppModule = {
  name: string;
  /** Registers the module's routes (Fastify plugins) on the app. */
  register: (app: AppInstance) => Promise<void>;
  jobs?: ModuleJob[];
  /** For its job kinds: what to undo when a queued job is cancelled before it started. */
  queuedCancelHooks?: QueuedCancelHooks;
};
