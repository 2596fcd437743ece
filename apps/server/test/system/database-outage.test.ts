/**
 * The database connection cut for a few seconds (docs/decisions/008): the server reaches
 * PostgreSQL through a TCP proxy that the test controls. While work goes on (sales, donations,
 * receipt downloads that render a PDF inside their transaction), PostgreSQL first ends the server's
 * sessions itself (`pg_terminate_backend`, what a restart does: 57P01), then the proxy drops every
 * connection and refuses new ones, then swallows them without answer (a network cut). Meanwhile
 * requests that need the database answer 503 problem+json with Retry-After (never 500, never a hang),
 * `/readyz` 503 and `/healthz` 200, and the process stays up. Once the proxy passes again, the same
 * requests succeed and the mail worker sends again, without a restart.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  openPool,
  type ServerProcess,
  signIn,
  startServer,
  startSmtpSink,
  stopAllServers,
  waitUntil,
} from './harness.ts';

const ADMIN_EMAIL = 'admin@example.org';
const ADMIN_PASSWORD = 'outage-restart-password-3';
/** How long the proxy refuses connections, then how long it swallows them. */
const REFUSED_MS = 3000;
const BLACKHOLE_MS = 6000;
/** The server gives up connecting after 5 s (db/client.ts); a request may take that, and a little more. */
const LONGEST_ANSWER_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A TCP proxy on a loopback port to `target`: `pass` forwards, `refuse` drops every connection and
 * stops listening (ECONNREFUSED, as when PostgreSQL is down), `blackhole` accepts connections and
 * never answers (a network cut).
 */
async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let mode: 'pass' | 'refuse' | 'blackhole' = 'pass';
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  };
  const server: Server = createServer((client) => {
    track(client);
    // Blackhole: the connection is held, and nothing ever answers.
    if (mode !== 'pass') return;
    const upstream = connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  const listen = (port: number) =>
    new Promise<number>((resolve) =>
      server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    );
  const port = await listen(0);
  const dropAll = () => {
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
  };
  return {
    port,
    /** Drops every connection; `refuse` also stops listening. */
    cut: async (next: 'refuse' | 'blackhole') => {
      mode = next;
      dropAll();
      if (next === 'refuse' && server.listening) await new Promise((resolve) => server.close(resolve));
      if (next === 'blackhole' && !server.listening) await listen(port);
    },
    restore: async () => {
      mode = 'pass';
      dropAll();
      if (!server.listening) await listen(port);
    },
    close: async () => {
      dropAll();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
  };
}

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
let proxy: Awaited<ReturnType<typeof startTcpProxy>> | undefined;
let sql: pg.Pool | undefined;

beforeAll(async () => {
  database = await createTestDatabase('outage');
  sink = await startSmtpSink();
  const direct = new URL(database.url);
  proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  sql = openPool(database.url);
});

afterAll(async () => {
  await stopAllServers();
  await proxy?.close();
  await sink?.close();
  await sql?.end();
  await database?.drop();
});

/** One call's outcome: its status (0 when no answer came), how long it took, the id it created. */
type Outcome = {
  id?: number;
  status: number;
  ms: number;
  contentType: string;
  retryAfter: string | null;
  code?: string;
};

describe('the database connection cut for a few seconds', () => {
  it('answers 503 while it is cut, stays up, and works again after without a restart', async () => {
    const proxied = new URL((database as { url: string }).url);
    proxied.port = String(proxy?.port);
    const server: ServerProcess = await startServer({
      DATABASE_URL: proxied.toString(),
      SMTP_URL: (sink as { url: string }).url,
      MAIL_POLL_INTERVAL_MS: '100',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    });
    await server.ready(60_000);
    const { url } = server;
    const expectAlive = () =>
      expect(server.child.exitCode, `the server stopped:\n${server.output().slice(-3000)}`).toBeNull();
    const currency = "(select id from currencies where name = 'EURO')";
    const [donor] = (
      await (sql as pg.Pool).query<{ id: number }>(
        `insert into subscribers (first_name, last_name, email, currency_id) values ('Zoé', 'Panne', '', ${currency}) returning id`,
      )
    ).rows;
    const [product] = (
      await (sql as pg.Pool).query<{ id: number }>(
        `insert into products (name, euro_price, swiss_price, current_stock) values ('Brochure', 12.30, 13.50, 100000) returning id`,
      )
    ).rows;
    const token = await signIn(url, ADMIN_EMAIL, ADMIN_PASSWORD);

    async function call(method: string, path: string, body?: unknown): Promise<Outcome> {
      const started = performance.now();
      try {
        const answer = await fetch(`${url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        const contentType = answer.headers.get('content-type') ?? '';
        const text = await answer.text();
        const parsed = contentType.includes('json')
          ? (JSON.parse(text) as { code?: string; id?: number })
          : {};
        return {
          status: answer.status,
          ms: performance.now() - started,
          contentType,
          retryAfter: answer.headers.get('retry-after'),
          code: parsed.code,
          ...(typeof parsed.id === 'number' ? { id: parsed.id } : {}),
        };
      } catch {
        return { status: 0, ms: performance.now() - started, contentType: '', retryAfter: null };
      }
    }
    const donation = () =>
      call('POST', '/api/donations', { subid: donor?.id, amount: 25.5, donationDate: '2025-06-01' });
    const sale = () =>
      call('POST', '/api/sales', {
        subscriberId: donor?.id,
        fullName: 'Zoé Panne',
        association: '',
        currencySymbol: '€',
        country: 'France',
        items: [{ productId: product?.id, quantity: 1, euroUnitPrice: 12.3, swissUnitPrice: 13.5 }],
      });
    // The calls that need the database, each answering 2xx when it is there.
    const probes: Array<[string, () => Promise<Outcome>, number]> = [
      ['GET /api/products', () => call('GET', '/api/products'), 200],
      ['GET /api/sales', () => call('GET', '/api/sales?listlength=10'), 200],
      ['POST /api/donations', donation, 201],
      ['POST /api/sales', sale, 201],
    ];
    // All at once: while connections are swallowed, each waits for the connect timeout.
    const expectAllAnswer = async (status: number) => {
      const outcomes = await Promise.all(probes.map(([, probe]) => probe()));
      for (const [index, [name, , ok]] of probes.entries()) {
        const outcome = outcomes[index] as Outcome;
        const expected = status === 503 ? { status, code: 'database.unavailable' } : { status: ok };
        expect({
          name,
          status: outcome.status,
          code: outcome.status === 503 ? outcome.code : undefined,
        }).toEqual({
          name,
          ...expected,
          code: expected.code,
        });
        expect(outcome.ms, `${name} answered in time`).toBeLessThan(LONGEST_ANSWER_MS);
        if (status === 503) {
          expect(outcome.contentType).toContain('application/problem+json');
          expect(Number(outcome.retryAfter)).toBeGreaterThan(0);
        }
      }
    };
    await expectAllAnswer(200);

    // Work that goes on throughout: a transaction is open (a receipt renders its PDF inside one)
    // at the moment its connection dies.
    const background: Outcome[] = [];
    const unreceipted: number[] = [];
    let stopped = false;
    const worker = async (work: () => Promise<Outcome>) => {
      while (!stopped) {
        const outcome = await work();
        background.push(outcome);
        await sleep(outcome.status === 503 ? 200 : 20);
      }
    };
    const donationToReceipt = async () => {
      const outcome = await donation();
      if (outcome.status === 201 && outcome.id) unreceipted.push(outcome.id);
      return outcome;
    };
    const receipt = () => {
      const id = unreceipted.shift();
      return id ? call('GET', `/api/donations/receipt/${id}`) : donationToReceipt();
    };
    const running = Promise.all([worker(donationToReceipt), worker(sale), worker(receipt), worker(receipt)]);
    await sleep(1500);

    // 1. PostgreSQL ends the server's sessions (57P01), as a restart does; the pool connects afresh.
    await (sql as pg.Pool).query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    await sleep(1000);
    expectAlive();

    // 2. Every connection dropped and new ones refused.
    await proxy?.cut('refuse');
    const cutAt = performance.now();
    await sleep(200);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const notReady = await fetch(`${url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get('content-type')).toContain('application/problem+json');
    await expectAllAnswer(503);
    await sleep(Math.max(0, REFUSED_MS - (performance.now() - cutAt)));

    // 3. Connections swallowed without answer: requests wait for the connect timeout, then 503.
    await proxy?.cut('blackhole');
    const blackholeAt = performance.now();
    const [readyDuringCut] = await Promise.all([fetch(`${url}/readyz`), expectAllAnswer(503)]);
    expect(readyDuringCut.status).toBe(503);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await sleep(Math.max(0, BLACKHOLE_MS - (performance.now() - blackholeAt)));
    expectAlive();

    // 4. The database is back: the same server answers again, at once.
    await proxy?.restore();
    const restoredAt = performance.now();
    await waitUntil(async () => (await fetch(`${url}/readyz`)).status === 200, { timeoutMs: 10_000 });
    const recoveredMs = performance.now() - restoredAt;
    await expectAllAnswer(200);
    await sleep(1000);
    stopped = true;
    await running;

    // The mail worker polls again: a message put straight into the outbox (nothing nudges the
    // worker) reaches the sink.
    await (sql as pg.Pool).query(
      `insert into outbox_messages (message_id, to_address, subject, text_body)
       values ('<after-outage@back-office>', 'zoe@example.org', 'Après la panne', 'Bonjour')`,
    );
    await waitUntil(
      () => sink?.received.some((mail) => mail.messageId === '<after-outage@back-office>') ?? false,
      {
        timeoutMs: 10_000,
        message: () => `mail worker did not resume:\n${server.output().slice(-3000)}`,
      },
    );
    expect(server.output()).toContain('background jobs could not reach the database');

    // Throughout: answers were 2xx or 503, in time; the process never went down.
    const statuses = new Set(background.map((outcome) => outcome.status));
    expect([...statuses].filter((status) => ![200, 201, 503].includes(status))).toEqual([]);
    expect(background.filter((outcome) => outcome.status === 503).length).toBeGreaterThan(0);
    expect(Math.max(...background.map((outcome) => outcome.ms))).toBeLessThan(LONGEST_ANSWER_MS);
    expectAlive();
    expect(server.output()).not.toMatch(/"level":50.*request failed/);

    // Nothing was half-written by the transactions the cut interrupted.
    const [halfWritten] = (
      await (sql as pg.Pool).query<{
        sales: string;
        stock: number;
        sold: string;
        donations: string;
        lines: string;
      }>(
        `select (select count(*) from sales s where not exists (select 1 from sale_lines l where l.sale_id = s.id)) as sales,
                (select current_stock from products where id = $1) as stock,
                (select coalesce(sum(quantity), 0) from sale_lines where product_id = $1) as sold,
                (select count(*) from donations) as donations,
                (select count(*) from subscriber_history where description like 'Donation of % added.') as lines`,
        [product?.id],
      )
    ).rows;
    expect(Number(halfWritten?.sales)).toBe(0);
    expect(halfWritten?.stock).toBe(100_000 - Number(halfWritten?.sold));
    expect(halfWritten?.lines).toBe(halfWritten?.donations);
    const receiptNumbers = (
      await (sql as pg.Pool).query<{ number: number }>('select number from receipts order by number')
    ).rows;
    expect(receiptNumbers.map((row) => row.number)).toEqual(receiptNumbers.map((_, index) => index + 1));

    process.stdout.write(
      `database outage: ${background.length} background calls (${background.filter((o) => o.status === 503).length} answered 503), ` +
        `slowest ${Math.round(Math.max(...background.map((outcome) => outcome.ms)))} ms; ready again ${Math.round(recoveredMs)} ms after the proxy came back\n`,
    );
  });
});
