import type { Job } from '@back-office/contract/jobs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiClient, asAdministrator } from '../../../test/api.ts';
import { createSignedInUser, useTestApp } from '../../../test/context.ts';
import { queryRows } from '../../db/client.ts';
import { createJobsRepository } from './jobs.repository.ts';
import { createJobRunner, type JobHandler } from './jobs.runner.ts';

const ctx = useTestApp();
const repository = createJobsRepository();
const quiet = { info: () => {}, warn: () => {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A runner of its own (another "process") whose only kind is handled by `handler`. */
function runnerWith(handler: JobHandler, workerId?: string) {
  const runner = createJobRunner({
    db: ctx.database.db,
    repository,
    logger: quiet,
    pollIntervalMs: 20,
    workerId,
  });
  runner.register('receipts.annual-run', handler);
  return runner;
}

const enqueue = (title = 'Test job', extra: { maxAttempts?: number; leaseSeconds?: number } = {}) =>
  repository.enqueue(ctx.database.db, {
    kind: 'receipts.annual-run',
    title,
    startedBy: 'Zoé Martin',
    ...extra,
  });

const find = async (id: number) => {
  const row = await repository.find(ctx.database.db, id);
  if (!row) throw new Error(`job ${id} is gone`);
  return row;
};

async function until(condition: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 200; i += 1) {
    if (await condition()) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('the job runner', () => {
  it('runs a queued job once, with its progress, and records that it succeeded', async () => {
    let runs = 0;
    const runner = runnerWith(async ({ progress }) => {
      runs += 1;
      progress(3, 4);
    });
    const job = await enqueue();
    expect(await runner.runDue()).toEqual([job.id]);
    expect(await runner.runDue()).toEqual([]);
    expect(runs).toBe(1);
    expect(await find(job.id)).toMatchObject({
      state: 'succeeded',
      attempts: 1,
      progressDone: 3,
      progressTotal: 4,
      lockedBy: null,
    });
  });

  it('retries a failed job after a growing back-off, then gives up with the reason', async () => {
    const runner = runnerWith(async () => {
      throw new Error('The printer is on fire.');
    });
    const job = await enqueue('Failing job', { maxAttempts: 2 });
    await runner.runDue();
    const first = await find(job.id);
    expect(first).toMatchObject({
      state: 'queued',
      attempts: 1,
      lastError: 'Error: The printer is on fire.',
    });
    const delayMs = first.runAfter.getTime() - Date.now();
    expect(delayMs).toBeGreaterThan(8_000);
    expect(delayMs).toBeLessThanOrEqual(10_000);
    // The back-off is over.
    await ctx.database.db.execute(sql`update jobs set run_after = now() where id = ${job.id}`);
    await runner.runDue();
    expect(await find(job.id)).toMatchObject({ state: 'failed', attempts: 2 });
    expect((await find(job.id)).finishedAt).not.toBeNull();
  });

  it('cancels a running job from the API within a second; a queued one at once', async () => {
    const api = await asAdministrator(ctx);
    let sawCancel = false;
    const runner = runnerWith(async ({ shouldStop, cancelRequested, progress }) => {
      let done = 0;
      while (!shouldStop()) {
        progress(done++, 1000);
        await sleep(10);
      }
      sawCancel = cancelRequested();
      return 'stopped';
    });
    const running = await enqueue('Long job');
    const waiting = await enqueue('Waiting job');
    await ctx.database.db.execute(
      sql`update jobs set run_after = now() + interval '1 hour' where id = ${waiting.id}`,
    );
    runner.start();
    try {
      await until(async () => (await find(running.id)).state === 'running', 'the job to start');
      const cancelled = await api.post(`/api/jobs/${running.id}/cancel`);
      expect(cancelled).toMatchObject({
        status: 202,
        body: { state: 'running', cancelRequested: true, cancellable: false },
      });
      await until(async () => (await find(running.id)).state === 'cancelled', 'the job to stop');
      expect(sawCancel).toBe(true);

      expect((await api.post(`/api/jobs/${waiting.id}/cancel`)).body).toMatchObject({ state: 'cancelled' });
      expect(await api.post(`/api/jobs/${waiting.id}/cancel`)).toMatchObject({
        status: 409,
        body: { code: 'jobs.not_cancellable' },
      });
    } finally {
      await runner.stop();
    }
  });

  it('hands its running jobs back when the process stops, without counting the attempt', async () => {
    let stoppedOnRequest = false;
    const runner = runnerWith(async ({ shouldStop }) => {
      while (!shouldStop()) await sleep(10);
      stoppedOnRequest = true;
      return 'stopped';
    });
    const job = await enqueue();
    runner.start();
    await until(async () => (await find(job.id)).state === 'running', 'the job to start');
    await runner.stop();
    expect(stoppedOnRequest).toBe(true);
    expect(await find(job.id)).toMatchObject({ state: 'queued', attempts: 0, lockedBy: null });
  });

  it('lets two processes share the jobs: each job runs once', async () => {
    const ran: number[] = [];
    const handler: JobHandler = async ({ job }) => {
      ran.push(job.id);
      await sleep(5);
    };
    const jobs = await Promise.all(Array.from({ length: 8 }, (_, index) => enqueue(`Job ${index}`)));
    const [a, b] = await Promise.all([runnerWith(handler, 'a').runDue(), runnerWith(handler, 'b').runDue()]);
    const ids = jobs.map((job) => job.id).sort((x, y) => x - y);
    expect([...(a ?? []), ...(b ?? [])].sort((x, y) => x - y)).toEqual(ids);
    expect(ran.sort((x, y) => x - y)).toEqual(ids);
  });

  it('runs at most maxRunning jobs of a kind at once, though it may run more of others', async () => {
    let running = 0;
    let most = 0;
    const runner = createJobRunner({ db: ctx.database.db, repository, logger: quiet, pollIntervalMs: 20 });
    runner.register(
      'receipts.annual-run',
      async () => {
        running += 1;
        most = Math.max(most, running);
        await sleep(60);
        running -= 1;
      },
      { maxRunning: 1 },
    );
    const jobs = await Promise.all(Array.from({ length: 3 }, (_, index) => enqueue(`Job ${index}`)));
    runner.start();
    try {
      await until(
        async () =>
          (await Promise.all(jobs.map((job) => find(job.id)))).every((job) => job.state === 'succeeded'),
        'the three jobs',
      );
    } finally {
      await runner.stop();
    }
    expect(most).toBe(1);
  });

  it('takes over the job of a process that stopped renewing its lease', async () => {
    const job = await enqueue('Orphan', { leaseSeconds: 1 });
    const claimed = await repository.claimDue(ctx.database.db, {
      kinds: ['receipts.annual-run'],
      workerId: 'dead',
    });
    expect(claimed?.id).toBe(job.id);
    const runner = runnerWith(async () => {});
    expect(await runner.runDue()).toEqual([]);
    await sleep(1100);
    expect(await runner.runDue()).toEqual([job.id]);
    expect(await find(job.id)).toMatchObject({ state: 'succeeded', attempts: 2 });
  });
});

describe('GET /api/jobs and cancel', () => {
  it('lists the repeating jobs first, and is for Administrators only', async () => {
    await ctx.app.jobs.runDue();
    await enqueue('Annual receipts 2025');
    const { tokens, admin } = await createSignedInUser(ctx);
    const api = apiClient(ctx, admin.id_token);
    const listed = await api.get<Job[]>('/api/jobs');
    expect(listed.status).toBe(200);
    expect(listed.body.map((job) => [job.kind, job.state, job.repeats, job.startedBy])).toEqual([
      ['auth.purge', 'queued', true, null],
      ['exports.purge', 'queued', true, null],
      ['imports.expire', 'queued', true, null],
      ['mandates.expire', 'queued', true, null],
      ['personal-data.purge', 'queued', true, null],
      ['subscribers.name-counts', 'queued', true, null],
      ['receipts.annual-run', 'queued', false, 'Zoé Martin'],
    ]);
    expect((await apiClient(ctx, tokens.id_token).get('/api/jobs')).status).toBe(403);
    expect((await api.post(`/api/jobs/${listed.body[0]?.id}/cancel`)).status).toBe(409);
    expect((await api.post('/api/jobs/999/cancel')).status).toBe(404);
    const rows = await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from jobs`);
    expect(rows[0]?.n).toBe(7);
  });
});
