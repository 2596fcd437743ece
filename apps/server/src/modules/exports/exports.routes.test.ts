import { Readable } from 'node:stream';
import type { ExportFile } from '@back-office/contract/exports';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, createSignedInUser, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertDonation, insertSubscribers } from '../../../test/factories.ts';
import { asRecords, readSheet } from '../../../test/xlsx.ts';
import { queryRows } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { createJobsRepository } from '../jobs/jobs.repository.ts';
import { createExportsRepository } from './exports.repository.ts';
import { createExportsService, type ExportSources } from './exports.service.ts';

// Three rows are streamed by GET …/export; more go to the background.
const ctx = useTestApp({ config: { EXPORT_INLINE_ROWS: '3' } });

async function asAdministrator() {
  const headers = bearer((await login(ctx)).id_token);
  return (method: 'GET' | 'POST', url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

async function fourSubscribers() {
  return insertSubscribers(ctx, [
    buildSubscriber({ lastName: 'Martin', town: 'Lyon' }),
    buildSubscriber({ lastName: 'Müller', town: 'Genève' }),
    buildSubscriber({ lastName: 'Durand', town: 'Lyon' }),
    buildSubscriber({ lastName: 'Aubert', town: 'Paris' }),
  ]);
}

async function chunkCount(id: number) {
  const [row] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`select count(*)::int as n from export_file_chunks where job_id = ${id}`,
  );
  return row?.n ?? 0;
}

/** The exports service on the test database, with `sources` (none needed to purge) and pieces of 2,000 bytes. */
function exportsService(clock: Clock, sources?: ExportSources) {
  const none = undefined as unknown as ExportSources;
  return createExportsService({
    db: ctx.database.db,
    repository: createExportsRepository(),
    jobs: createJobsRepository(),
    sources: sources ?? none,
    clock,
    nudge: () => {},
    chunkBytes: 2_000,
  });
}

describe('large exports', () => {
  it('refuses to stream an export over the limit, with 409 exports.too_large, and streams one within it', async () => {
    const api = await asAdministrator();
    await fourSubscribers();
    const tooLarge = await api('GET', '/api/subscribers/export');
    expect(tooLarge.statusCode).toBe(409);
    expect(tooLarge.json()).toMatchObject({ code: 'exports.too_large' });
    expect(tooLarge.json().detail).toContain('more than 3 rows');
    expect((await api('GET', '/api/subscribers/export?town=Lyon')).statusCode).toBe(200);

    const donor = (await insertSubscribers(ctx, [buildSubscriber({ lastName: 'Zeller' })]))[0]?.id ?? 0;
    for (const day of ['01', '02', '03', '04'])
      await insertDonation(ctx, donor, { donationDate: `2025-06-${day}` });
    expect((await api('GET', '/api/donations/export?isdetailed=true')).statusCode).toBe(409);
    // One donor and currency: one row.
    expect((await api('GET', '/api/donations/export')).statusCode).toBe(200);
  });

  it('writes the file in the background with progress, and gives it to its author only', async () => {
    const api = await asAdministrator();
    await fourSubscribers();
    const started = await api('POST', '/api/exports', {
      source: 'subscribers',
      query: { emailsOnly: false },
    });
    expect(started.statusCode).toBe(202);
    const queued = started.json() as ExportFile;
    expect(queued).toMatchObject({
      source: 'subscribers',
      fileName: 'subscribers-export.xlsx',
      state: 'queued',
      rows: null,
      cancellable: true,
    });
    const notReady = await api('GET', `/api/exports/${queued.id}/file`);
    expect(notReady.statusCode).toBe(409);
    expect(notReady.json()).toMatchObject({ code: 'exports.not_ready' });

    await ctx.app.jobs.runDue();
    const done = (await api('GET', `/api/exports/${queued.id}`)).json() as ExportFile;
    expect(done).toMatchObject({
      state: 'succeeded',
      rows: 4,
      progress: { done: 4, total: 4 },
      cancellable: false,
    });
    expect(new Date(done.expiresAt ?? 0).getTime() - ctx.clock.now().getTime()).toBe(24 * 3_600_000);

    const file = await api('GET', `/api/exports/${queued.id}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('subscribers-export.xlsx');
    expect(Number(file.headers['content-length'])).toBe(done.bytes);
    expect(file.rawPayload.length).toBe(done.bytes);
    const records = asRecords((await readSheet(file.rawPayload)).rows);
    expect(records.map((record) => record['Last name'])).toEqual(['Aubert', 'Durand', 'Martin', 'Müller']);

    const other = await createSignedInUser(ctx, { email: 'other@example.org' });
    const headers = bearer(other.tokens.id_token);
    for (const [method, url] of [
      ['GET', `/api/exports/${queued.id}`],
      ['GET', `/api/exports/${queued.id}/file`],
      ['POST', `/api/exports/${queued.id}/cancel`],
    ] as const) {
      const answer = await ctx.app.inject({ method, url, headers });
      expect(answer.statusCode, url).toBe(404);
    }
  });

  it('writes the donations export with the same query as GET /api/donations/export', async () => {
    const api = await asAdministrator();
    const donor = (await insertSubscribers(ctx, [buildSubscriber({ lastName: 'Zeller' })]))[0]?.id ?? 0;
    for (const amount of [10, 20, 30, 40]) await insertDonation(ctx, donor, { amount });
    const started = (
      await api('POST', '/api/exports', {
        source: 'donations',
        query: { isdetailed: 'true', amountMin: '15' },
      })
    ).json() as ExportFile;
    expect(started.fileName).toBe('donation-details-export.xlsx');
    await ctx.app.jobs.runDue();
    const file = await api('GET', `/api/exports/${started.id}/file`);
    const amounts = asRecords((await readSheet(file.rawPayload)).rows).map((record) => record.Amount);
    expect(amounts.sort()).toEqual([20, 30, 40]);
  });

  it('answers 400 naming the field for a bad source or query', async () => {
    const api = await asAdministrator();
    const badSource = await api('POST', '/api/exports', { source: 'sales', query: {} });
    expect(badSource.statusCode).toBe(400);
    const badDate = await api('POST', '/api/exports', {
      source: 'subscribers',
      query: { addedafter: '31/12/2025' },
    });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().errors).toContainEqual({
      path: 'query.addedafter',
      message: 'Dates are written YYYY-MM-DD.',
    });
  });

  it('lets a user have two exports under way at once, even asked for together', async () => {
    const api = await asAdministrator();
    const answers = await Promise.all(
      [1, 2, 3].map(() => api('POST', '/api/exports', { source: 'subscribers', query: {} })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 202, 429]);
    expect(answers.find((answer) => answer.statusCode === 429)?.json()).toMatchObject({
      code: 'exports.too_many',
    });
    const other = await createSignedInUser(ctx, { email: 'other@example.org' });
    const theirs = await ctx.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers: bearer(other.tokens.id_token),
      payload: { source: 'subscribers', query: {} },
    });
    expect(theirs.statusCode).toBe(202);
  });

  it('cancels a queued export, drops what a stopped attempt wrote, and purges expired files', async () => {
    const api = await asAdministrator();
    await fourSubscribers();
    const first = (
      await api('POST', '/api/exports', { source: 'subscribers', query: {} })
    ).json() as ExportFile;
    const cancelled = await api('POST', `/api/exports/${first.id}/cancel`);
    expect(cancelled.statusCode).toBe(202);
    expect(cancelled.json()).toMatchObject({ state: 'cancelled', cancellable: false });
    expect((await api('POST', `/api/exports/${first.id}/cancel`)).json()).toMatchObject({
      code: 'exports.not_cancellable',
    });
    expect((await api('GET', `/api/exports/${first.id}/file`)).statusCode).toBe(409);

    // A server stopping during the export: the attempt stops and leaves no piece behind.
    const second = (
      await api('POST', '/api/exports', { source: 'subscribers', query: {} })
    ).json() as ExportFile;
    await ctx.app.jobs.runDue({ shouldStop: () => true });
    expect((await api('GET', `/api/exports/${second.id}`)).json()).toMatchObject({ state: 'queued' });
    expect(await chunkCount(second.id)).toBe(0);
    await ctx.app.jobs.runDue();
    expect((await api('GET', `/api/exports/${second.id}`)).json()).toMatchObject({
      state: 'succeeded',
      rows: 4,
    });
    expect(await chunkCount(second.id)).toBe(1);

    // The cancelled export went with the purge of the run above; the written one goes after 24 hours.
    expect((await api('GET', `/api/exports/${first.id}`)).statusCode).toBe(404);
    ctx.clock.advance(24 * 3_600_000 + 1);
    const later = await asAdministrator();
    const expired = await later('GET', `/api/exports/${second.id}/file`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ code: 'exports.expired' });
    // The hourly purge (its next run is an hour away in real time: called here).
    expect(await exportsService(ctx.clock).purge()).toBe(1);
    expect((await later('GET', `/api/exports/${second.id}`)).statusCode).toBe(404);
    expect(await chunkCount(second.id)).toBe(0);
  });

  it('stores a large file in pieces and sends it back whole', async () => {
    const api = await asAdministrator();
    const started = (
      await api('POST', '/api/exports', { source: 'subscribers', query: {} })
    ).json() as ExportFile;
    const bytes = Buffer.from(Array.from({ length: 5_000 }, (_, index) => index % 251));
    const fakeSource = {
      fileName: () => 'bytes.bin',
      contentType: 'application/octet-stream',
      countRows: async () => 5,
      stream: (_query: unknown, onRows?: (rows: number) => void) => {
        onRows?.(5);
        const pieces: Buffer[] = [];
        for (let offset = 0; offset < bytes.length; offset += 700) {
          pieces.push(bytes.subarray(offset, offset + 700));
        }
        return Readable.from(pieces);
      },
    };
    const service = exportsService(ctx.clock, { subscribers: fakeSource, donations: fakeSource });
    const [job] = await queryRows<Parameters<typeof service.runJob>[0]['job']>(
      ctx.database.db,
      sql`select id, payload from jobs where id = ${started.id}`,
    );
    if (!job) throw new Error('no job');
    await service.runJob({ job, shouldStop: () => false, cancelRequested: () => false, progress: () => {} });
    expect(await chunkCount(started.id)).toBe(3);
    // What the runner records when the handler returns.
    await queryRows(ctx.database.db, sql`update jobs set state = 'succeeded' where id = ${started.id}`);
    const [owner] = await queryRows<{ id: number }>(
      ctx.database.db,
      sql`select user_id as id from export_files where job_id = ${started.id}`,
    );
    const user = {
      id: owner?.id ?? 0,
      email: '',
      fullName: '',
      role: 'Administrator' as const,
      sessionId: '',
    };
    const file = await service.file(started.id, user);
    const chunks: Buffer[] = [];
    for await (const chunk of file.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    expect((await service.get(started.id, user)).bytes).toBe(5_000);

    // Pieces removed while the file is sent: the stream fails instead of ending short.
    const cut = await service.file(started.id, user);
    const received: Buffer[] = [];
    await expect(
      (async () => {
        for await (const chunk of cut.body) {
          received.push(chunk as Buffer);
          await queryRows(ctx.database.db, sql`delete from export_file_chunks where job_id = ${started.id}`);
        }
      })(),
    ).rejects.toThrow('was removed while it was being sent');
    expect(Buffer.concat(received).length).toBeLessThan(bytes.length);
  });
});
