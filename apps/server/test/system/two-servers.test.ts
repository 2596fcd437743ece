/**
 * Two server processes on one PostgreSQL database (docs/deployment.md §Production layout): they start
 * together on an empty database, share the load behind a round-robin balancer, accept each other's tokens
 * (and each other's sign-outs), see each other's sales at once, and send a bulk email of 5,000 messages
 * exactly once between them. Everything they share lives in PostgreSQL; nothing is kept in a process.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  openPool,
  type ServerProcess,
  serverDir,
  signIn,
  startRoundRobinBalancer,
  startServer,
  startSmtpSink,
  stopAllServers,
  waitUntil,
} from './harness.ts';

const ADMIN_EMAIL = 'admin@example.org';
const ADMIN_PASSWORD = 'two-servers-password-1';
const BULK_RECIPIENTS = 5000;
const RECEIPT_DONORS = 30;
const MAIL_POLL_INTERVAL_MS = 100;

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
let balancer: Awaited<ReturnType<typeof startRoundRobinBalancer>> | undefined;
let sql: pg.Pool | undefined;
let first: ServerProcess;
let second: ServerProcess;

/** A JSON call with a bearer token; answers the Response (status not checked). */
function call(baseUrl: string, token: string, method: string, url: string, body?: unknown) {
  return fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A JSON call that must answer `status`; resolves with the parsed body. */
async function callOk<T>(
  baseUrl: string,
  token: string,
  method: string,
  url: string,
  body?: unknown,
  status = 200,
): Promise<T> {
  const answer = await call(baseUrl, token, method, url, body);
  const text = await answer.text();
  if (answer.status !== status) throw new Error(`${method} ${url}: ${answer.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

async function queryOne<T>(text: string, values: unknown[] = []): Promise<T> {
  const result = await (sql as pg.Pool).query(text, values);
  return result.rows[0] as T;
}

/** Whether `numbers` (sorted) follow each other without a gap or a repeat. */
const consecutive = (numbers: number[]) =>
  numbers.every((value, index) => value === (numbers[0] ?? 0) + index);

/** A subscriber save payload without an email address (so that only the bulk email's recipients get mail). */
function subscriberPayload(lastName: string) {
  return { firstName: 'Zoé', lastName, email: '', currencyId: 1, town: 'Annemasse', postcode: '74100' };
}

function salePayload(subscriberId: number, productId: number, quantity: number) {
  return {
    subscriberId,
    fullName: 'Mme Zoé Partage',
    association: '',
    currencySymbol: '€',
    swissSale: false,
    country: 'France',
    items: [{ productId, quantity, euroUnitPrice: 12.5, swissUnitPrice: 14 }],
  };
}

beforeAll(async () => {
  database = await createTestDatabase('two_servers');
  sink = await startSmtpSink();
  sql = openPool(database.url);
  const env = {
    DATABASE_URL: database.url,
    SMTP_URL: sink.url,
    MAIL_POLL_INTERVAL_MS: String(MAIL_POLL_INTERVAL_MS),
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    PUBLIC_URL: 'http://back-office.test',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    // Info logs carry one "mail sent" line per message, which tells which process sent it.
    LOG_LEVEL: 'info',
  };
  // Both start at once on the empty database: migrating and first-start seeding race on purpose.
  [first, second] = await Promise.all([startServer(env), startServer(env)]);
  await Promise.all([first.ready(60_000), second.ready(60_000)]);
  balancer = await startRoundRobinBalancer([first.url, second.url]);
});

afterAll(async () => {
  await stopAllServers();
  await balancer?.close();
  await sink?.close();
  await sql?.end();
  await database?.drop();
});

describe('two server processes on one PostgreSQL database', () => {
  it('start together on an empty database: migrations, signing key and Administrator made once', async () => {
    const migrations = (await readdir(path.join(serverDir, 'drizzle'))).filter((name) =>
      name.endsWith('.sql'),
    );
    const applied = await queryOne<{ n: string }>('select count(*) as n from drizzle.__drizzle_migrations');
    expect(Number(applied.n)).toBe(migrations.length);
    const users = await queryOne<{ n: string }>('select count(*) as n from users');
    expect(Number(users.n)).toBe(1);
    const keys = await queryOne<{ n: string }>('select count(*) as n from signing_keys');
    expect(Number(keys.n)).toBe(1);
    const currencies = await queryOne<{ n: string }>('select count(*) as n from currencies');
    expect(Number(currencies.n)).toBe(2);
    // Exactly one of them reports the first start.
    const reports = [first, second].filter((server) =>
      server.output().includes('First start: an Administrator account was created'),
    );
    expect(reports).toHaveLength(1);
  });

  it('share the load behind a round-robin balancer, each reading what the other just wrote', async () => {
    const base = balancer?.url ?? '';
    const servedBefore = [...(balancer?.served ?? [])];
    const token = await signIn(base, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (let round = 0; round < 5; round += 1) {
      const lastName = `Partage${round}`;
      const created = await callOk<{ id: number; version: number }>(
        base,
        token,
        'POST',
        '/api/subscribers',
        subscriberPayload(lastName),
        201,
      );
      // The next request goes to the other process: it reads the row the first one wrote.
      const read = await callOk<{ id: number; version: number; town: string }>(
        base,
        token,
        'GET',
        `/api/subscribers/${created.id}`,
      );
      expect(read).toMatchObject({ id: created.id, version: created.version, town: 'Annemasse' });
      const updated = await callOk<{ version: number }>(
        base,
        token,
        'PATCH',
        `/api/subscribers/${created.id}`,
        { ...subscriberPayload(lastName), id: created.id, version: read.version, town: 'Genève' },
      );
      expect(updated.version).toBe(read.version + 1);
      const reread = await callOk<{ version: number; town: string }>(
        base,
        token,
        'GET',
        `/api/subscribers/${created.id}`,
      );
      expect(reread).toMatchObject({ version: updated.version, town: 'Genève' });
      // A save based on the version before is refused by whichever process gets it.
      const stale = await call(base, token, 'PATCH', `/api/subscribers/${created.id}`, {
        ...subscriberPayload(lastName),
        id: created.id,
        version: read.version,
      });
      expect(stale.status).toBe(409);
      const found = await callOk<{ count: number; models: Array<{ id: number }> }>(
        base,
        token,
        'GET',
        `/api/subscribers/?name=${lastName}`,
      );
      expect(found.models.map((row) => row.id)).toEqual([created.id]);
      await callOk(base, token, 'GET', '/api/dash/subs');
    }
    const served = (balancer?.served ?? []).map((count, index) => count - (servedBefore[index] ?? 0));
    // 1 sign-in + 5 rounds of 7 requests, alternately to each process.
    expect(served).toEqual([18, 18]);
  });

  it('accept a token issued by the other, and refuse it on both once it signed out on one', async () => {
    const fromFirst = await signIn(first.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const fromSecond = await signIn(second.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (const token of [fromFirst, fromSecond]) {
      for (const server of [first, second]) {
        expect((await call(server.url, token, 'GET', '/api/subscribers/?listlength=1')).status).toBe(200);
      }
    }

    expect((await call(first.url, fromFirst, 'POST', '/auth/logout')).status).toBe(204);
    expect((await call(second.url, fromFirst, 'GET', '/api/subscribers/?listlength=1')).status).toBe(401);
    expect((await call(first.url, fromFirst, 'GET', '/api/subscribers/?listlength=1')).status).toBe(401);
    // The other session is untouched.
    expect((await call(first.url, fromSecond, 'GET', '/api/subscribers/?listlength=1')).status).toBe(200);

    expect((await call(second.url, fromSecond, 'POST', '/auth/logout')).status).toBe(204);
    expect((await call(first.url, fromSecond, 'GET', '/api/subscribers/?listlength=1')).status).toBe(401);
  });

  it('show a sale saved on one on the other at once, and number sales saved on both without gaps', async () => {
    const token = await signIn(first.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const product = await callOk<{ id: number }>(
      first.url,
      token,
      'POST',
      '/api/products',
      {
        name: 'Agenda partagé',
        euroPrice: 12.5,
        swissPrice: 14,
        active: true,
        currentStock: 100,
        minStockAlert: 2,
      },
      201,
    );
    const buyer = await callOk<{ id: number }>(
      second.url,
      token,
      'POST',
      '/api/subscribers',
      subscriberPayload('Acheteur'),
      201,
    );

    const sale = await callOk<{ id: number; ref: number; total: number }>(
      first.url,
      token,
      'POST',
      '/api/sales',
      salePayload(buyer.id, product.id, 2),
      201,
    );
    const seen = await callOk<{ id: number; ref: number; total: number; saleDetails: unknown[] }>(
      second.url,
      token,
      'GET',
      `/api/sales/${sale.id}`,
    );
    expect(seen).toMatchObject({ id: sale.id, ref: sale.ref, total: 25 });
    expect(seen.saleDetails).toHaveLength(1);
    const listed = await callOk<Array<{ id: number }>>(second.url, token, 'GET', `/api/sales?id=${buyer.id}`);
    expect(listed.map((row) => row.id)).toEqual([sale.id]);
    const stock = await callOk<{ currentStock: number }>(
      second.url,
      token,
      'GET',
      `/api/products/${product.id}`,
    );
    expect(stock.currentStock).toBe(98);

    // Ten sales at once, alternately on each process: one counter in PostgreSQL, so no gap, no repeat.
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        callOk<{ ref: number }>(
          index % 2 === 0 ? first.url : second.url,
          token,
          'POST',
          '/api/sales',
          salePayload(buyer.id, product.id, 1),
          201,
        ),
      ),
    );
    const refs = concurrent.map((row) => row.ref).sort((a, b) => a - b);
    expect(refs).toEqual(Array.from({ length: 10 }, (_, index) => sale.ref + 1 + index));
    const after = await callOk<{ currentStock: number }>(
      first.url,
      token,
      'GET',
      `/api/products/${product.id}`,
    );
    expect(after.currentStock).toBe(88);
  });

  it(`send a bulk email of ${BULK_RECIPIENTS} messages exactly once between them`, async () => {
    const mailSent = (server: ServerProcess) => server.output().match(/"msg":"mail sent"/g)?.length ?? 0;
    const sentBefore = [mailSent(first), mailSent(second)];
    const receivedBefore = sink?.received.length ?? 0;
    // The recipients, written straight into the database as an import would.
    const inserted = await (sql as pg.Pool).query<{ email: string }>(
      `insert into subscribers (first_name, last_name, email, currency_id, on_mail_chimp_list,
                                search_first_name, search_last_name)
       select 'Prénom' || n, 'Envoi' || n, 'bulk-' || n || '@example.org',
              (select id from currencies where name = 'EURO'), true, 'prenom' || n, 'envoi' || n
         from generate_series(1, $1::int) as n
       returning email`,
      [BULK_RECIPIENTS],
    );
    const expected = new Set(inserted.rows.map((row) => row.email));

    const token = await signIn(first.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const started = performance.now();
    const answer = await callOk<{ queued: number }>(
      first.url,
      token,
      'POST',
      '/api/subscribers/email/list',
      { subject: 'Nouvelles pour {firstName}', message: 'Bonjour {title} {lastName},\n\nÀ bientôt.' },
      202,
    );
    expect(answer.queued).toBe(BULK_RECIPIENTS);

    const outboxState = () =>
      queryOne<{ pending: string; sent: string; failed: string; max_attempts: number }>(
        `select count(*) filter (where status = 'pending') as pending,
                count(*) filter (where status = 'sent') as sent,
                count(*) filter (where status = 'failed') as failed,
                max(attempts) as max_attempts
           from outbox_messages`,
      );
    await waitUntil(async () => Number((await outboxState()).pending) === 0, {
      timeoutMs: 150_000,
      intervalMs: 200,
      message: () => `outbox not drained; ${sink?.received.length} received`,
    });
    const drainedSeconds = (performance.now() - started) / 1000;
    // Several poll intervals more, so that a late duplicate would have time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 10 * MAIL_POLL_INTERVAL_MS));

    const state = await outboxState();
    expect(state).toMatchObject({ pending: '0', sent: String(BULK_RECIPIENTS), failed: '0' });
    // Each message was claimed once: no process took over another's claim.
    expect(state.max_attempts).toBe(1);

    const received = sink?.received.slice(receivedBefore) ?? [];
    expect(received).toHaveLength(BULK_RECIPIENTS);
    const recipients = received.flatMap((mail) => mail.to);
    expect(recipients).toHaveLength(BULK_RECIPIENTS);
    expect(new Set(recipients)).toEqual(expected);
    const messageIds = new Set(received.map((mail) => mail.messageId));
    expect(messageIds.size).toBe(BULK_RECIPIENTS);
    const outboxIds = await (sql as pg.Pool).query<{ message_id: string }>(
      'select message_id from outbox_messages',
    );
    expect(messageIds).toEqual(new Set(outboxIds.rows.map((row) => row.message_id)));

    // Both processes sent a share, and their shares add up to the whole.
    const shares = [mailSent(first) - (sentBefore[0] ?? 0), mailSent(second) - (sentBefore[1] ?? 0)];
    expect(shares[0]).toBeGreaterThan(0);
    expect(shares[1]).toBeGreaterThan(0);
    expect((shares[0] ?? 0) + (shares[1] ?? 0)).toBe(BULK_RECIPIENTS);
    process.stdout.write(
      `bulk email: ${BULK_RECIPIENTS} messages queued and sent in ${drainedSeconds.toFixed(1)} s, shares ${shares.join(' + ')}\n`,
    );
  });

  it('issue receipts on both at once without a gap, and run an annual run in one process only', async () => {
    const token = await signIn(first.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const thisYear = Number(calendarDay(new Date(), DEFAULT_TIME_ZONE).slice(0, 4));
    // Donors without an email address (so the receipts go to print, not to the mail sink), each with one
    // gift of this year and one of last year, written straight into the database as an import would.
    const donors = await (sql as pg.Pool).query<{ id: number }>(
      `insert into subscribers (first_name, last_name, currency_id, search_first_name, search_last_name)
       select 'Donatrice', 'Reçu' || n, (select id from currencies where name = 'EURO'), 'donatrice', 'recu' || n
         from generate_series(1, $1::int) as n
       returning id`,
      [RECEIPT_DONORS],
    );
    const ids = donors.rows.map((row) => row.id);
    const gifts = await (sql as pg.Pool).query<{ id: number }>(
      `insert into donations (subscriber_id, amount, currency_id, donation_date, notes, added_by)
       select id, 20, currency_id, make_date($2::int, 3, 1), '', 'Import' from subscribers where id = any($1::int[])
       returning id`,
      [ids, thisYear],
    );
    await (sql as pg.Pool).query(
      `insert into donations (subscriber_id, amount, currency_id, donation_date, notes, added_by)
       select id, 30, currency_id, make_date($2::int, 6, 1), '', 'Import' from subscribers where id = any($1::int[])`,
      [ids, thisYear - 1],
    );
    const receiptNumbers = async (year: number) =>
      (
        await (sql as pg.Pool).query<{ number: number }>(
          'select number from receipts where year = $1 order by number',
          [year],
        )
      ).rows.map((row) => Number(row.number));

    // Every gift's receipt downloaded at once, alternately from each process: one counter, no gap, no repeat.
    const downloads = await Promise.all(
      gifts.rows.map((gift, index) =>
        call(index % 2 === 0 ? first.url : second.url, token, 'GET', `/api/donations/receipt/${gift.id}`),
      ),
    );
    expect(downloads.map((answer) => answer.status)).toEqual(gifts.rows.map(() => 200));
    await Promise.all(downloads.map((answer) => answer.arrayBuffer()));
    const singles = await receiptNumbers(thisYear);
    expect(singles).toHaveLength(RECEIPT_DONORS);
    expect(consecutive(singles)).toBe(true);

    // The annual run of last year asked of both at once: one run, its job worked by one process.
    const started = await Promise.all(
      [first.url, second.url].map((url) =>
        call(url, token, 'POST', '/api/donations/annual-runs', { year: thisYear - 1 }),
      ),
    );
    const statuses = started.map((answer) => answer.status).sort();
    expect([
      [202, 202],
      [202, 409],
    ]).toContainEqual(statuses);
    const runs = await Promise.all(started.map(async (answer) => (await answer.json()) as { id?: number }));
    const runId = runs.find((_run, index) => started[index]?.status === 202)?.id;
    await waitUntil(
      async () =>
        (await callOk<{ status: string }>(first.url, token, 'GET', `/api/donations/annual-runs/${runId}`))
          .status === 'done',
      { timeoutMs: 120_000, intervalMs: 250, message: () => `annual run ${runId} not done` },
    );
    const run = await callOk<{ total: number; toPrint: number; failed: number; receiptsIssued: number }>(
      second.url,
      token,
      'GET',
      `/api/donations/annual-runs/${runId}`,
    );
    const annual = await receiptNumbers(thisYear - 1);
    // When both answered 202, the second run found every receipt already issued by the first.
    expect(annual).toHaveLength(RECEIPT_DONORS);
    expect(annual[0]).toBe((singles.at(-1) ?? 0) + 1);
    expect(consecutive(annual)).toBe(true);
    expect(run).toMatchObject({ total: RECEIPT_DONORS, failed: 0 });
    const jobs = await (sql as pg.Pool).query<{ attempts: number; locked_by: string | null; state: string }>(
      `select attempts, locked_by, state from jobs where kind = 'receipts.annual-run' and singleton_key = $1`,
      [`receipts.annual-run:${runId}`],
    );
    expect(jobs.rows).toHaveLength(1);
    expect(jobs.rows[0]).toMatchObject({ attempts: 1 });
  });
});
