import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { type DeclaredRoute, declaredRoutes } from '../src/http/access-control.ts';
import { registerErrorHandler } from '../src/http/error-handler.ts';
import { bearer, createSignedInUser, login, type TestContext, useTestApp } from './context.ts';
import { buildSubscriber, insertSubscribers } from './factories.ts';
import {
  type BadInput,
  badInputs,
  isZodSchema,
  LONG_TEXT,
  PARTS,
  type Part,
  type QueryValues,
  type RequestParts,
  type RouteInputs,
  validSample,
} from './malformed-inputs.ts';

/**
 * Bad input (docs/spec/design.md §Contract decisions the spec leaves open): for every route that takes
 * path parameters, a query string or a body, thousands of malformed requests generated from the route's
 * own zod schemas (test/malformed-inputs.ts). Each answer must be a 4xx `application/problem+json` naming
 * the fields the contract refuses, never a 5xx, and a refused request must write nothing. Unknown fields
 * are stripped by the contract (its objects are not strict, so that any client written against it keeps
 * working): they must be neither refused with a 5xx nor stored.
 *
 * Replay a failure with `FC_SEED=<seed>` (printed with it).
 */

const ctx = useTestApp();

/**
 * Tables a refused request may legitimately write:
 * - `login_failures`: a sign-in refused with 401 counts the failure per address, by design, so that
 *   guessing is rate limited across server instances (auth.service `login`);
 * - `login_lockouts`, and the `sign_in_locked` events of `audit_events`: enough such failures lock
 *   the account from that address, and the lockout is audited (docs/decisions/011).
 */
const TABLES_WRITTEN_WHEN_REFUSED = new Set(['login_failures', 'login_lockouts']);
const ROWS_WRITTEN_WHEN_REFUSED: Record<string, string> = { audit_events: "t.action <> 'sign_in_locked'" };

/** Random runs per route on top of the curated ones, and per field of the route. */
const RANDOM_RUNS = { base: 10, perField: 2 };

/** An id no record has: DELETE routes aim at it, so that a valid-shaped request deletes nothing. */
const MISSING_ID = '999999';

/** The Administrator who calls every route, so that authorisation is not what refuses. */
const CALLER_ID = 1;

/** A route with the zod schemas it validates, a valid-shaped request, and malformed ones around it. */
type Target = {
  route: DeclaredRoute;
  inputs: RouteInputs;
  base: RequestParts;
  fields: number;
} & ReturnType<typeof badInputs>;

/** The routes that validate input, DELETE routes last (they may delete what others use). */
function targets(routes: DeclaredRoute[]): Target[] {
  const found: Target[] = [];
  for (const route of routes) {
    const inputs: RouteInputs = {};
    for (const part of PARTS) {
      const schema = route.schema?.[part];
      if (isZodSchema(schema)) inputs[part] = schema;
    }
    if (Object.keys(inputs).length === 0) continue;
    const sample = (part: Part) => {
      const schema = inputs[part];
      return schema ? validSample(schema, part === 'body' ? 'json' : 'text') : undefined;
    };
    const params = (sample('params') ?? {}) as Record<string, string>;
    if (route.method === 'DELETE') for (const key of Object.keys(params)) params[key] = MISSING_ID;
    const base = { params, query: (sample('querystring') ?? {}) as QueryValues, body: sample('body') };
    const generated = badInputs(inputs, base);
    const fields = new Set(generated.curated.map((input) => `${input.part}.${input.path}`)).size;
    found.push({ route, inputs, base, fields, ...generated });
  }
  return found.sort((a, b) => Number(a.route.method === 'DELETE') - Number(b.route.method === 'DELETE'));
}

/** The URL of a request: path parameters percent-encoded, repeated query keys repeated. */
function urlOf(route: DeclaredRoute, input: RequestParts) {
  const path = route.url.replace(/:(\w+)/g, (_match, name: string) =>
    encodeURIComponent(input.params[name] ?? ''),
  );
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query)) {
    for (const item of [value].flat()) search.append(key, item);
  }
  const query = search.toString();
  return { url: query ? `${path}?${query}` : path, search };
}

/** The query string as the server parses it back (a repeated key becomes an array). */
function parsedQuery(search: URLSearchParams): QueryValues {
  const query: QueryValues = {};
  for (const [key, value] of search) {
    const previous = query[key];
    query[key] = previous === undefined ? value : [previous, value].flat();
  }
  return query;
}

/** What the contract says of a request: nothing, the whole body is unreadable, or the first part it refuses (Fastify's order) and the paths its issues name. */
type Refusal = { part: Part; paths: string[] } | 'whole body' | undefined;

function expectedRefusal(target: Target, input: BadInput, search: URLSearchParams): Refusal {
  if (input.rawBody !== undefined) return 'whole body';
  const seen: Record<Part, unknown> = {
    params: input.params,
    body: input.body === undefined ? undefined : JSON.parse(JSON.stringify(input.body)),
    querystring: parsedQuery(search),
  };
  for (const part of PARTS) {
    const result = target.inputs[part]?.safeParse(seen[part]);
    if (result && !result.success)
      return { part, paths: result.error.issues.map((issue) => issue.path.join('.')) };
  }
  return undefined;
}

/** Sends `input` to the route as the Administrator. */
async function send(target: Target, input: BadInput, token: string) {
  const { url, search } = urlOf(target.route, input);
  const payload =
    input.rawBody ?? (target.inputs.body === undefined ? undefined : JSON.stringify(input.body ?? null));
  const response = await ctx.app.inject({
    method: target.route.method as 'GET',
    url,
    headers: {
      ...bearer(token),
      ...(payload === undefined ? {} : { 'content-type': input.contentType ?? 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload }),
  });
  return { response, search };
}

/**
 * Every table's row count and a digest of its rows' versions (`xmin`, `ctid`): any row inserted,
 * updated (even to equal values) or deleted changes it, at a cost that does not grow with row width
 * (the outbox holds PDFs).
 */
async function fingerprint(context: TestContext): Promise<Map<string, string>> {
  const tables = await queryRows<{ tablename: string }>(
    context.database.db,
    sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
  );
  const parts = tables
    .filter((table) => !TABLES_WRITTEN_WHEN_REFUSED.has(table.tablename))
    .map(
      ({ tablename }) =>
        `select '${tablename}' as name, count(*)::text || ':' || md5(coalesce(string_agg(t.xmin::text || t.ctid::text, ',' order by t.ctid), '')) as digest from "${tablename}" t` +
        (ROWS_WRITTEN_WHEN_REFUSED[tablename] ? ` where ${ROWS_WRITTEN_WHEN_REFUSED[tablename]}` : ''),
    );
  const rows = await queryRows<{ name: string; digest: string }>(
    context.database.db,
    sql.raw(parts.join(' union all ')),
  );
  return new Map(rows.map((row) => [row.name, row.digest]));
}

/**
 * The next transaction id PostgreSQL will assign. A transaction gets one at its first write (even one
 * rolled back later), never for reads: while this does not move, nothing was written and the costlier
 * {@link fingerprint} can be skipped. (On a shared PostgreSQL server other databases move it too; the
 * fingerprint then decides.)
 */
async function nextTransactionId(context: TestContext): Promise<string> {
  const rows = await queryRows<{ xid: string }>(
    context.database.db,
    sql`select pg_snapshot_xmax(pg_current_snapshot())::text as xid`,
  );
  return rows[0]?.xid ?? '';
}

/** Tracks the database between requests: `changes()` names the tables written since the last call. */
async function writeTracker(context: TestContext) {
  let state = await fingerprint(context);
  let xid = await nextTransactionId(context);
  return {
    changes: async (): Promise<string[]> => {
      if ((await nextTransactionId(context)) === xid) return [];
      const after = await fingerprint(context);
      const changed = [...after.keys()].filter((name) => state.get(name) !== after.get(name));
      state = after;
      xid = await nextTransactionId(context);
      return changed;
    },
  };
}

/** Tables holding `text` anywhere in a row. */
async function tablesContaining(context: TestContext, text: string) {
  const tables = await queryRows<{ tablename: string }>(
    context.database.db,
    sql`select tablename from pg_tables where schemaname = 'public'`,
  );
  const found: string[] = [];
  for (const { tablename } of tables) {
    const rows = await queryRows<{ n: number }>(
      context.database.db,
      sql`select count(*)::int as n from ${sql.identifier(tablename)} t where strpos(t::text, ${text}) > 0`,
    );
    if ((rows[0]?.n ?? 0) > 0) found.push(tablename);
  }
  return found;
}

/** A short, printable description of a value (long strings are cut). */
function preview(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'string' && item.length > 60 ? `${item.slice(0, 40)}…(${item.length} chars)` : item,
  );
  return text === undefined ? 'undefined' : text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

type ProblemBody = { status?: number; code?: string; detail?: string; errors?: Array<{ path: string }> };

/**
 * Records made through the API before the properties run: the first of each kind is what valid
 * bodies point at (`subscriberId: 1`, `productId: 1`), the second what valid paths point at (`/2`);
 * user 2 is a second account for the users routes (the caller, user 1, is left alone).
 */
async function seedRecords(context: TestContext) {
  await createSignedInUser(context, {
    email: 'target.user@example.org',
    password: 'Quartz-Lantern-Orchard-73',
  });
  const headers = bearer((await login(context)).id_token);
  const post = async (url: string, payload: object) => {
    const response = await context.app.inject({ method: 'POST', url, headers, payload });
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  };
  await insertSubscribers(context, [buildSubscriber(), buildSubscriber()]);
  for (const name of ['Product one', 'Product two']) {
    await post('/api/products', {
      name,
      euroPrice: 10,
      swissPrice: 12,
      active: true,
      currentStock: 1_000_000,
      minStockAlert: 0,
    });
  }
  for (const list of ['subs', 'cats', 'tags']) {
    for (const name of ['First item', 'Second item']) await post(`/api/${list}`, { name });
  }
  for (const amount of [10, 20]) {
    await post('/api/donations', { subid: 1, amount, donationDate: '2025-01-10', notes: '' });
  }
  for (const quantity of [1, 2]) {
    await post('/api/sales', {
      subscriberId: 1,
      items: [{ productId: 1, quantity, euroUnitPrice: 10, swissUnitPrice: 12 }],
    });
  }
}

/** Checks one answer; throws a short description of what is wrong. */
function checkAnswer(
  input: BadInput,
  expected: Refusal,
  answer: { status: number; contentType: string; problem: ProblemBody; changed: string[] },
) {
  const { status, problem, changed } = answer;
  const what = `${input.kind} at ${input.part} '${input.path}' -> ${status} ${preview(problem)}`;
  if (status >= 500) throw new Error(`server error for ${what}`);
  if (status >= 400) {
    if (!answer.contentType.startsWith('application/problem+json'))
      throw new Error(`not a problem document for ${what}`);
    if (problem.status !== status || typeof problem.code !== 'string')
      throw new Error(`malformed problem for ${what}`);
    if (changed.length > 0) throw new Error(`refused, yet wrote ${changed.join(', ')}: ${what}`);
  }
  if (expected === 'whole body') {
    if (status < 400) throw new Error(`accepted ${what}`);
    return;
  }
  if (expected) {
    // A path the router cannot match (a parameter over 100 characters) is refused before validation.
    if (expected.part === 'params' && [404, 414].includes(status) && problem.code === `http.${status}`)
      return;
    if (status !== 400 || problem.code !== 'validation.failed')
      throw new Error(`expected 400 validation.failed naming ${expected.paths.join(', ')}: ${what}`);
    const named = (problem.errors ?? []).map((error) => error.path).sort();
    if (preview(named) !== preview([...expected.paths].sort()))
      throw new Error(`expected errors naming ${expected.paths.join(', ')}: ${what}`);
    if (input.path !== '' && named.includes('')) throw new Error(`an error names no field: ${what}`);
    return;
  }
  if (problem.code === 'validation.failed')
    throw new Error(`the contract accepts, the server refused: ${what}`);
  if (problem.code === 'validation.invalid_value') {
    // The error handler's safety net: a 400, but one that names no field. The contract must refuse it.
    throw new Error(`the contract let through a value the database refused: ${what}`);
  }
}

describe('bad input, generated from the contract schemas of every route', () => {
  it('finds every route that takes input, with a valid-shaped request the contract accepts', async () => {
    const found = targets(declaredRoutes(ctx.app));
    expect(found.length).toBeGreaterThan(40);
    for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE']) {
      expect(found.map((target) => target.route.method)).toContain(method);
    }
    // The base requests must pass validation, so that a refusal of a mutated one is the mutation's doing.
    await seedRecords(ctx);
    const token = (await login(ctx)).id_token;
    const refused: string[] = [];
    for (const target of found) {
      const { response } = await send(
        target,
        { ...target.base, part: 'body', path: '', kind: 'base' },
        token,
      );
      const problem: ProblemBody = response.statusCode >= 400 ? response.json<ProblemBody>() : {};
      if (response.statusCode >= 500 || problem.code?.startsWith('validation.')) {
        refused.push(`${target.route.method} ${target.route.url}: ${response.statusCode} ${response.body}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('answers malformed input with a 4xx problem naming the field, never a 5xx, and writes nothing', async () => {
    await seedRecords(ctx);
    const token = (await login(ctx)).id_token;
    const tracker = await writeTracker(ctx);
    const failures: string[] = [];
    const statuses = new Map<string, number>();

    for (const target of targets(declaredRoutes(ctx.app))) {
      const { route } = target;
      const property = fc.asyncProperty(target.random, async (input) => {
        // The caller's own account is not a target: changing its password or role would end this session.
        if (route.url.startsWith('/api/users')) {
          const params = target.inputs.params?.safeParse(input.params);
          fc.pre(!(params?.success && (params.data as { id?: number }).id === CALLER_ID));
        }
        const { response, search } = await send(target, input, token);
        const status = response.statusCode;
        const answer = {
          status,
          contentType: String(response.headers['content-type'] ?? ''),
          problem: status >= 400 ? response.json<ProblemBody>() : {},
          changed: await tracker.changes(),
        };
        const statusClass = `${String(status).slice(0, 1)}xx`;
        statuses.set(statusClass, (statuses.get(statusClass) ?? 0) + 1);
        checkAnswer(input, expectedRefusal(target, input, search), answer);
        if (input.marker && status < 400) {
          const stored = await tablesContaining(ctx, input.marker);
          if (stored.length > 0) throw new Error(`unknown field stored in ${stored.join(', ')}`);
        }
      });
      await fc.assert(property, {
        examples: target.curated.map((input) => [input] as [BadInput]),
        numRuns: target.curated.length + RANDOM_RUNS.base + RANDOM_RUNS.perField * target.fields,
        ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
        // A custom reporter keeps the message short: a counterexample may hold 100,000 characters.
        asyncReporter: async (details) => {
          if (!details.failed) return;
          const error =
            details.errorInstance instanceof Error ? details.errorInstance.message : details.errorInstance;
          failures.push(
            `${route.method} ${route.url}: ${String(error)} (input ${preview(details.counterexample?.[0])}; seed ${details.seed})`,
          );
        },
      });
    }
    const total = [...statuses.values()].reduce((sum, count) => sum + count, 0);
    console.info(`bad input: ${total} requests, ${preview(Object.fromEntries(statuses))}`);
    expect(failures).toEqual([]);
    expect(total).toBeGreaterThan(3_000);
  }, 600_000);

  it('answers the examples of the issue by naming the field', async () => {
    const token = (await login(ctx)).id_token;
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
    const subscriber = buildSubscriber();
    const cases: Array<[string, Promise<{ statusCode: number; json: () => unknown }>, string]> = [
      [
        'NUL in a name',
        call('POST', '/api/subscribers', { ...subscriber, lastName: 'Nul\u0000' }),
        'lastName',
      ],
      ['NUL in a search', call('GET', '/api/subscribers/?name=a%00b'), 'name'],
      ['100,000 characters', call('POST', '/api/subscribers', { ...subscriber, notes: LONG_TEXT }), 'notes'],
      ['a wrong type', call('POST', '/api/subscribers', { ...subscriber, copies: 'many' }), 'copies'],
      [
        '30 February',
        call('POST', '/api/donations', { subid: 1, amount: 5, donationDate: '2026-02-30' }),
        'donationDate',
      ],
      [
        'year 99999',
        call('POST', '/api/donations', { subid: 1, amount: 5, donationDate: '99999-01-01' }),
        'donationDate',
      ],
      [
        'an empty date',
        call('POST', '/api/donations', { subid: 1, amount: 5, donationDate: '' }),
        'donationDate',
      ],
      ['year 0', call('POST', '/api/subscribers', { ...subscriber, startDate: '0000-01-01' }), 'startDate'],
      [
        '1e308',
        call('POST', '/api/donations', { subid: 1, amount: 1e308, donationDate: '2025-01-01' }),
        'amount',
      ],
      ['-1', call('POST', '/api/donations', { subid: 1, amount: -1, donationDate: '2025-01-01' }), 'amount'],
      [
        '2^53 + 1',
        call('POST', '/api/donations', { subid: 2 ** 53 + 1, amount: 5, donationDate: '2025-01-01' }),
        'subid',
      ],
      [
        'an id past 2^31',
        call('POST', '/api/donations', { subid: 2 ** 31, amount: 5, donationDate: '2025-01-01' }),
        'subid',
      ],
      ['NaN as text', call('GET', '/api/donations?amountMin=NaN'), 'amountMin'],
      ['a huge path id', call('GET', '/api/subscribers/99999999999999999999'), 'id'],
      ['a negative path id', call('GET', '/api/subscribers/-1'), 'id'],
      ['a non-numeric path id', call('GET', '/api/subscribers/abc'), 'id'],
      ['a path id past 2^31', call('GET', '/api/subscribers/2147483648'), 'id'],
      ['a query id past 2^31', call('GET', '/api/subscribers/?copies=2147483648'), 'copies'],
      ['a fractional query id', call('GET', '/api/sales?id=1.5'), 'id'],
    ];
    for (const [label, pending, field] of cases) {
      const response = await pending;
      expect(response.statusCode, label).toBe(400);
      expect(response.json(), label).toMatchObject({
        code: 'validation.failed',
        errors: expect.arrayContaining([expect.objectContaining({ path: field })]),
      });
    }
  });

  it('stores injection-shaped text as plain text, and drops unknown fields', async () => {
    const token = (await login(ctx)).id_token;
    for (const name of ["'; drop table subscribers; --", '<script>alert(1)</script>', "=cmd|' /C calc'!A0"]) {
      const created = await ctx.app.inject({
        method: 'POST',
        url: '/api/tags',
        headers: bearer(token),
        payload: { name, isAdmin: true, unknownField: 'zz-marker-zz' },
      });
      expect(created.statusCode, name).toBe(201);
      expect(created.json()).toEqual({ id: expect.any(Number), name });
      expect(await tablesContaining(ctx, 'zz-marker-zz')).toEqual([]);
    }
    const search = await ctx.app.inject({ url: '/api/subscribers/', headers: bearer(token) });
    expect(search.statusCode).toBe(200);
  });

  it('answers what the router refuses with a problem too', async () => {
    const token = (await login(ctx)).id_token;
    for (const [url, status] of [
      ['/api/subscribers/%E0%A4%A', 400],
      [`/api/subscribers/${'9'.repeat(101)}`, 414],
    ] as const) {
      const response = await ctx.app.inject({ url, headers: bearer(token) });
      expect(response.statusCode, url).toBe(status);
      expect(response.headers['content-type'], url).toContain('application/problem+json');
      expect(response.json(), url).toMatchObject({ status, code: `http.${status}` });
    }
  });

  it('answers a value the database refuses with a 400, should one get past the contract', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    // Drizzle wraps the driver's error: the PostgreSQL code is on its cause.
    const wrapped = (code: string) => Object.assign(new Error('Failed query'), { cause: { code } });
    app.get('/nul', () => Promise.reject(wrapped('22021')));
    app.get('/range', () => Promise.reject(wrapped('22003')));
    app.get('/bug', () => Promise.reject(wrapped('42703')));
    for (const url of ['/nul', '/range']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toMatchObject({ code: 'validation.invalid_value' });
    }
    expect((await app.inject({ url: '/bug' })).statusCode).toBe(500);
    await app.close();
  });

  it('sees every write in its fingerprint, even one that changes no value', async () => {
    const tracker = await writeTracker(ctx);
    expect(await tracker.changes()).toEqual([]);
    await ctx.database.db.execute(sql`update users set email = email`);
    expect(await tracker.changes()).toEqual(['users']);
    // A write rolled back leaves nothing behind.
    await ctx.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`delete from users`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await tracker.changes()).toEqual([]);
  });
});
