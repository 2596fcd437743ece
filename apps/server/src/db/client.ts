import { mkdir, readdir, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type ExtractTablesWithRelations, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, PgDialect, type PgQueryResultHKT, type PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';

type Schema = Record<string, never>;

/** The Drizzle database, whichever driver is underneath (PGlite or node-postgres). */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; repositories accept either this or {@link Database}. */
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Executor = Database | Transaction;

/** An open database: Drizzle handle plus lifecycle functions. */
export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Applies pending migrations; on PostgreSQL under an advisory lock so several servers may start at once. */
  migrate: () => Promise<void>;
  /** Runs `fn` while holding the start-up lock (PostgreSQL) so first-start seeding happens once. */
  withStartupLock: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Resolves when the database answers `select 1`. */
  ping: () => Promise<void>;
  close: () => Promise<void>;
};

export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');
const STARTUP_LOCK_KEY = 727_001;

/** The embedded database's folder is open in another process: PGlite allows one at a time. */
export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

/**
 * Refuses when another process (the server) has the embedded database in `dir` open: two processes on
 * one PGlite folder damage it. Returns false when it cannot tell (no `/proc`; see
 * {@link findProcessesUsingDir}). @throws DataDirInUseError naming that process.
 */
export async function ensureDataDirNotOpen(dir: string): Promise<boolean> {
  const { checked, pids } = await findProcessesUsingDir(dir);
  if (pids.length > 0) {
    throw new DataDirInUseError(
      `The embedded database in ${dir} is open in process ${pids.join(', ')} (the server?). ` +
        'PGlite allows one process at a time: stop the server first, then run the command again.',
    );
  }
  return checked;
}

/**
 * Opens PostgreSQL when `databaseUrl` is given, otherwise PGlite in `dataDir/pglite`
 * (`dataDir` undefined = in memory, for tests). docs/spec/design.md §Stack, "data": one dialect, two drivers.
 * @throws DataDirInUseError when another process has `dataDir/pglite` open (Linux; see
 * {@link ensureDataDirNotOpen}).
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  let dir: string | undefined;
  if (options.dataDir) {
    dir = path.join(options.dataDir, 'pglite');
    await mkdir(dir, { recursive: true });
    // Say, the demo seed started beside a running server.
    await ensureDataDirNotOpen(dir);
  }
  const client = newPglite(dir);
  await client.waitReady;
  return fromPglite(client);
}

/**
 * Opens an embedded database (in memory without `dataDir`) with the extensions our migrations create:
 * `pg_trgm`, for the trigram indexes of the name search (migration 0022_name_trigram), and `btree_gin`,
 * for the country in the last name's one (0053_country_name_trigram). Every PGlite of
 * the project opens through here: a database whose index uses an extension that is not loaded cannot
 * be written to.
 */
export function newPglite(
  dataDir?: string,
  options: Omit<PGliteOptions, 'dataDir' | 'extensions'> = {},
): PGlite {
  return new PGlite({ ...options, ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm, btree_gin } });
}

/** Wraps an existing PGlite instance (tests load one from a migrated template). */
export function fromPglite(client: PGlite): DatabaseHandle {
  const db = drizzlePglite(client, { casing: 'snake_case' }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
    },
    withStartupLock: (fn) => fn(),
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

/**
 * Session settings of the server's PostgreSQL connections (libpq `options`; an `options` parameter in
 * DATABASE_URL replaces them). No parallel plans: the app's queries are short and many run at once, and on
 * a few cores the worker processes of a parallel plan cost more CPU than they save. Measured on the 2-core
 * bench machine (`npm run bench -- load`): 50 % more requests per second under the mixed load, p99 40 %
 * lower, and the large counts (a tag of 50,000 subscribers) no slower alone.
 *
 * No statement runs longer than 2 minutes and no transaction stays idle for more than 1 minute, so a
 * runaway query or a request that stopped half-way cannot hold a connection and its locks for ever
 * (docs/decisions/011). The app's statements take milliseconds; the longest are an export's COPY (about 30 s
 * for 200,000 sales, given more time by {@link EXPORT_STATEMENT_TIMEOUT}) and migrations (run with no
 * limit, on a connection of their own).
 */
export const POSTGRES_SESSION_OPTIONS =
  '-c max_parallel_workers_per_gather=0 -c statement_timeout=120s -c idle_in_transaction_session_timeout=60s';

/** `statement_timeout` of an export's COPY, which lasts as long as the download; the stall timeout ends it sooner when its client stops reading. */
export const EXPORT_STATEMENT_TIMEOUT = '30min';

function openPostgres(url: string): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: POSTGRES_SESSION_OPTIONS,
    // While PostgreSQL is down or unreachable, a request fails (503) after 5 s rather than waiting.
    connectionTimeoutMillis: 5000,
    // A peer that vanished without closing (network cut) is noticed by TCP keepalive, not never.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // A dropped connection must not crash the process (docs/decisions/008). node-postgres emits 'error' on a
  // client whose connection ends outside a query: the pool listens on idle clients, but a client
  // checked out by a transaction (between two of its statements) has no listener, and an unheard
  // 'error' event kills Node. The failure reaches the caller anyway through its next query
  // ("not queryable"), and the pool then drops the client and connects afresh.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = drizzlePg(pool, { casing: 'snake_case' }) as unknown as Database;
  const withStartupLock = async <T>(fn: () => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
      return await fn();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => {});
      client.release();
    }
  };
  return {
    db,
    kind: 'postgres',
    migrate: () =>
      withStartupLock(async () => {
        // Migrations may build indexes on large tables: no statement timeout for them.
        const migrations = new pg.Pool({ connectionString: url, max: 1, options: '-c statement_timeout=0' });
        try {
          await migratePg(drizzlePg(migrations), { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          await migrations.end();
        }
      }),
    withStartupLock,
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => pool.end(),
  };
}

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`, which the shared Drizzle type cannot say. */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * `any(array(…))` of many ids or texts in one parameter, on PGlite and PostgreSQL alike: write
 * `column = ${anyOf(ids, 'int')}`. PostgreSQL then reads the column's index for the list, where
 * `in (select …)` hashes the list and scans the table.
 */
export function anyOf(values: readonly (number | string)[], type: 'int' | 'text'): SQL {
  const elements = sql`jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)`;
  return type === 'int' ? sql`any(array(select (${elements})::int))` : sql`any(array(select ${elements}))`;
}

/**
 * Integer ids as one PostgreSQL array literal (`{1,2,3}`), the value of a `${column} = any(${param}::int[])`
 * parameter: one parameter whatever the number of ids, so the statement's text (and a prepared
 * statement's plan) stays the same from one call to the next.
 */
export function intArrayLiteral(ids: readonly number[]): string {
  return `{${ids.join(',')}}`;
}

/**
 * Texts as one PostgreSQL array literal (`{"a","b"}`), the value of a `${column} = any(${param}::text[])`
 * parameter: the planner sees the values (its estimate of the matches), where {@link anyOf} hides them.
 */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** `column = any(…)` over the `ids` placeholder of a prepared statement run by {@link executeForIds}. */
export function inIdsPlaceholder(column: SQLWrapper): SQL {
  return sql`${column} = any(${sql.placeholder('ids')}::int[])`;
}

/**
 * Runs a prepared statement filtered by {@link inIdsPlaceholder} for `ids` (its other placeholders'
 * values in `values`); no query for no ids.
 */
export async function executeForIds<Row>(
  statement: { execute: (values: Record<string, unknown>) => Promise<Row[]> },
  ids: readonly number[],
  values: Record<string, unknown> = {},
): Promise<Row[]> {
  return ids.length === 0 ? [] : statement.execute({ ...values, ids: intArrayLiteral(ids) });
}

const snakeCaseDialect = new PgDialect({ casing: 'snake_case' });

/**
 * `query` rendered to its text once, for SQL a statement repeats many times (the select list of a large
 * export's batches): building it from columns again costs about a millisecond a statement. Column
 * names in snake_case, as the Drizzle instances above name them. Throws when `query` has parameters.
 */
export function renderedOnce(query: SQL): SQL {
  const { sql: text, params } = snakeCaseDialect.sqlToQuery(query);
  if (params.length > 0) throw new Error('renderedOnce takes SQL without parameters');
  return sql.raw(text);
}

/**
 * A statement that a request runs often, built once per connection (`build(db)` returns a Drizzle
 * `.prepare('name')`): its SQL is rendered once instead of on every call, and PostgreSQL plans it once
 * per connection. Each name must stand for one SQL text.
 *
 * Drizzle binds a prepared statement to the connection of the executor it was built on: a pooled
 * connection (kept across the transactions that check it out), PGlite's transaction, or the pool
 * itself for `db`. It is taken again only by an executor on that same connection, so it always runs
 * in the caller's transaction; building it for each transaction was a tenth of a millisecond a
 * statement. It is kept per Drizzle instance too, for the statement logs, maps its rows and names its
 * columns as the instance it was built by does (another instance over the same pool, such as one
 * that records the statements it runs, gets its own).
 */
export function preparedPerConnection<Statement>(
  build: (db: Executor) => Statement,
): (db: Executor) => Statement {
  const built = new WeakMap<object, WeakMap<object, Statement>>();
  return (db) => {
    const { instance, connection } = ownersOf(db);
    let ofInstance = built.get(instance);
    if (!ofInstance) {
      ofInstance = new WeakMap();
      built.set(instance, ofInstance);
    }
    let statement = ofInstance.get(connection);
    if (!statement) {
      statement = build(db);
      ofInstance.set(connection, statement);
    }
    return statement;
  };
}

/**
 * The Drizzle instance behind an executor, by its dialect (one per `drizzle()`, shared by the
 * instance's transactions), and the driver client its queries go to (kept on its session).
 */
function ownersOf(db: Executor): { instance: object; connection: object } {
  const parts = db as unknown as { dialect?: object; session?: { client?: object } };
  return { instance: parts.dialect ?? db, connection: parts.session?.client ?? db };
}

/**
 * Process ids (other than this one) holding a file open inside `dir`, read from `/proc/<pid>/fd`
 * (Linux; processes of other users cannot be seen). `checked` is false where there is no `/proc`.
 * PGlite keeps the files of the relations it has read open, so a running server shows up here.
 */
export async function findProcessesUsingDir(dir: string): Promise<{ checked: boolean; pids: number[] }> {
  let resolved: string;
  try {
    resolved = await realpath(dir);
  } catch {
    return { checked: true, pids: [] };
  }
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return { checked: false, pids: [] };
  }
  const pids: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const fds = await readdir(`/proc/${entry}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${entry}/fd/${fd}`).catch(() => '');
      if (target === resolved || target.startsWith(`${resolved}${path.sep}`)) {
        pids.push(Number(entry));
        break;
      }
    }
  }
  return { checked: true, pids };
}
