/**
 * Bulk loading for the demo and benchmark data on PostgreSQL: rows written as CSV into
 * `COPY … FROM STDIN`, and secondary indexes dropped before a large load and built once after it.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';

/** Streams `lines` (each ending with a newline) into a `COPY … FROM STDIN` statement. */
export async function copyLines(client: pg.Client, statement: string, lines: string[]) {
  const sink = client.query(copyStreams.from(statement));
  await pipeline(Readable.from(chunked(lines)), sink);
}

/** The lines joined in pieces of about 1 MB: one stream write per piece, not per line. */
function* chunked(lines: string[]) {
  let piece = '';
  for (const line of lines) {
    piece += line;
    if (piece.length > 1_000_000) {
      yield piece;
      piece = '';
    }
  }
  if (piece) yield piece;
}

/** A CSV field as `COPY … (FORMAT csv)` reads it: NULL unquoted and empty, text always quoted. */
export function csvValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  if (value instanceof Date) return value.toISOString();
  return `"${String(value).replaceAll('"', '""')}"`;
}

/** `addedOn` → `added_on`, as the Drizzle instances name columns (casing: snake_case). */
export const snakeCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** From this many new rows on, a seed drops the secondary indexes and builds them after the load. */
export const REBUILD_INDEXES_FROM = 100_000;

/**
 * Drops the indexes of `tables` that no constraint owns (not the primary keys, not the unique
 * constraints) and returns their definitions, to be run again once the rows are in.
 */
export async function dropSecondaryIndexes(client: pg.Client, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `select i.indexname as name, i.indexdef as definition
       from pg_indexes i
      where i.schemaname = 'public' and i.tablename = any($1::text[])
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    [tables],
  );
  for (const { name } of rows) await client.query(`drop index if exists "${name}"`);
  return rows.map((row) => row.definition);
}

/**
 * Lets `client`'s session load rows without firing their row triggers, where it may (a superuser:
 * `session_replication_role`, which also skips the foreign keys' checks): the copy of the subscriber's
 * last name on gifts and sales (migration 0060) cost 13 µs a row, a minute for five million gifts. The
 * loader then writes what the triggers would have: rows it made from the database's own subscribers.
 * Elsewhere the triggers run, more slowly, to the same result.
 */
export async function withoutRowTriggers(client: pg.Client): Promise<void> {
  await client.query('set session_replication_role = replica').catch(() => undefined);
}
