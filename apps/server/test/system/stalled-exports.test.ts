/**
 * Stalled exports on real PostgreSQL (docs/decisions/011; docs/security.md "Sharing the server fairly"): one
 * user opens twelve large exports and never reads them. Two run, the other ten are refused (429), so
 * a search, a record open and `/readyz` still answer in under a second; once the stall timeout has
 * passed, the two are aborted and their database connections are free again.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { sql as sqlText } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoSubscribers } from '../../scripts/seed-demo.ts';
import { seedDemoSales } from '../../scripts/seed-demo-sales.ts';
import { openDatabase, queryRows } from '../../src/db/client.ts';
import {
  createTestDatabase,
  openPool,
  type ServerProcess,
  signIn,
  startServer,
  stopAllServers,
  waitUntil,
} from './harness.ts';

const ADMIN_EMAIL = 'admin@example.org';
const ADMIN_PASSWORD = 'stalled-exports-password-1';
const STALL_TIMEOUT_SECONDS = 3;
/** Enough sales for a detailed CSV of tens of megabytes: far more than the socket buffers hold. */
const SALES = 60_000;

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let sql: pg.Pool | undefined;
let server: ServerProcess;
const sockets: Socket[] = [];

/** Sends a GET on a raw socket, reads the status line, then never reads again. */
async function stalledGet(path: string, token: string): Promise<number> {
  const socket = connect(server.port, '127.0.0.1');
  sockets.push(socket);
  await once(socket, 'connect');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  const [first] = (await once(socket, 'data')) as [Buffer];
  socket.pause();
  return Number(first.toString('latin1').match(/^HTTP\/1\.1 (\d{3})/)?.[1]);
}

/** Milliseconds `fetch(path)` takes, and its status. */
async function timed(path: string, token?: string) {
  const started = performance.now();
  const answer = await fetch(`${server.url}${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  await answer.arrayBuffer();
  return { status: answer.status, ms: performance.now() - started };
}

async function runningCopies(): Promise<number> {
  const result = await sql?.query<{ n: string }>(
    `select count(*) as n from pg_stat_activity where datname = current_database() and query ilike 'copy%' and state = 'active'`,
  );
  return Number(result?.rows[0]?.n ?? 0);
}

beforeAll(async () => {
  database = await createTestDatabase('exports');
  sql = openPool(database.url);
  server = await startServer({
    DATABASE_URL: database.url,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    EXPORT_STALL_TIMEOUT_SECONDS: String(STALL_TIMEOUT_SECONDS),
  });
  await server.ready(60_000);
  const seeding = await openDatabase({ databaseUrl: database.url });
  try {
    await seedDemoSubscribers(seeding.db, { target: 2_000 });
    await seedDemoSales(seeding.db, { target: SALES });
  } finally {
    await seeding.close();
  }
}, 170_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await stopAllServers();
  await sql?.end();
  await database?.drop();
});

describe('exports whose client never reads, on PostgreSQL', () => {
  it('leave searches, record opens and /readyz answering in under a second, and are aborted after the stall timeout', async () => {
    const token = await signIn(server.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push(await stalledGet('/api/sales/export?isdetailed=true', token));
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    // The two that run are really stalled: their COPY holds a connection, waiting for the client.
    await waitUntil(async () => (await runningCopies()) === 2, {
      timeoutMs: 10_000,
      message: () => 'two COPY statements running',
    });

    const search = await timed('/api/subscribers/?lastName=a&listlength=20', token);
    const firstId = (await sql?.query<{ id: number }>('select id from subscribers order by id limit 1'))
      ?.rows[0]?.id;
    const record = await timed(`/api/subscribers/${firstId}`, token);
    const ready = await timed('/readyz');
    for (const answer of [search, record, ready]) {
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(1000);
    }

    // After the stall timeout both are aborted: no COPY left, and the user may export again.
    await waitUntil(async () => (await runningCopies()) === 0, {
      timeoutMs: (STALL_TIMEOUT_SECONDS + 10) * 1000,
      message: () => 'the stalled COPY statements ended',
    });
    await waitUntil(async () => (await timed('/api/products/export', token)).status === 200, {
      timeoutMs: 5_000,
    });
    const again = await fetch(`${server.url}/api/sales/export`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(again.status).toBe(200);
    expect((await again.text()).split('\n').length).toBeGreaterThan(SALES);
  });

  it('gives every connection of the server a statement and an idle-in-transaction timeout', async () => {
    const handle = await openDatabase({ databaseUrl: database?.url ?? '' });
    try {
      const settings = await handle.db.transaction(async (tx) => [
        ...(await queryRows(tx, sqlText`show statement_timeout`)),
        ...(await queryRows(tx, sqlText`show idle_in_transaction_session_timeout`)),
      ]);
      expect(settings).toEqual([
        { statement_timeout: '2min' },
        { idle_in_transaction_session_timeout: '1min' },
      ]);
    } finally {
      await handle.close();
    }
  });
});
