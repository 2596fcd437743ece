import type { Readable } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../test/context.ts';
import { csvStream, UTF8_BOM } from '../lib/csv.ts';
import { queryRows } from './client.ts';
import { copyCsvStatement, copyCsvStream, csvCopyQuery } from './copy-csv.ts';

const ctx = useTestApp();

/** The whole text of a stream. */
async function textOf(stream: Readable) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * What COPY writes for `query`, behind the BOM: through copyCsvStream on PostgreSQL, and on PGlite
 * (no COPY TO STDOUT stream) through its `/dev/blob` device, the same statement otherwise.
 */
async function copiedText(query: SQL) {
  const stream = await copyCsvStream(ctx.database.db, query);
  if (ctx.database.kind === 'postgres') {
    if (!stream) throw new Error('no COPY stream on PostgreSQL');
    return textOf(stream);
  }
  expect(stream).toBeUndefined();
  const pglite = (ctx.database.db as unknown as { $client: PGlite }).$client;
  const result = await pglite.query(copyCsvStatement(query).replace(/ to stdout /, " to '/dev/blob' "));
  return UTF8_BOM + (await result.blob?.text());
}

/** The pool under the test database (PostgreSQL only). */
const poolOf = () => (ctx.database.db as unknown as { $client: pg.Pool }).$client;

const COLUMNS = [
  { key: 'a', header: 'first' },
  { key: 'b', header: 'second' },
  { key: 'c', header: 'third' },
] as const;

/** Rows of three texts as a VALUES list, last first, each cell made by csvCopyQuery. */
function valuesQuery(rows: Array<Record<'a' | 'b' | 'c', string>>) {
  const values = rows.map((row, index) => sql`(${index}, ${row.a}, ${row.b}, ${row.c})`);
  const columns = { a: sql.raw('t.a'), b: sql.raw('t.b'), c: sql.raw('t.c') };
  return csvCopyQuery(COLUMNS, columns, 'rfc4180', (selection) =>
    ctx.database.db
      .select(selection)
      .from(sql`(values ${sql.join(values, sql`, `)}) as t(n, a, b, c)`)
      .orderBy(sql.raw('t.n desc'))
      .getSQL(),
  );
}

/** Text PostgreSQL can hold (no NUL, no lone surrogate), rich in what CSV and formulas care about. */
const cellText = fc.oneof(
  fc.string({
    unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ',', '"', "'", '\\', ' ', 'a', 'é', '😀'),
  }),
  fc.string({ unit: 'binary' }).filter((text) => !text.includes('\0') && !/\p{Cs}/u.test(text)),
);

describe('CSV written by COPY', () => {
  it('is byte for byte what csvStream writes for the same rows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ a: cellText, b: cellText, c: cellText }), { minLength: 1, maxLength: 8 }),
        async (rows) => {
          // In the ordered query's order: last row first.
          const expected = await textOf(csvStream([...rows].reverse(), COLUMNS));
          expect(await copiedText(valuesQuery(rows))).toBe(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('writes parameters into the statement as literals, quotes and backslashes included', () => {
    const statement = copyCsvStatement(sql`select ${"it's \\'; select 1; --"} as v`);
    expect(statement).toBe(
      `copy (select  E'it''s \\\\''; select 1; --' as v) to stdout with (format csv, header, delimiter ',')`,
    );
  });

  it('gives the pooled connection back after a whole COPY, and closes it after a failure or an abort', async () => {
    if (ctx.database.kind === 'pglite') {
      expect(await copyCsvStream(ctx.database.db, sql`select 1 as one`)).toBeUndefined();
      return;
    }
    const pool = poolOf();
    const checkedOut = () => pool.totalCount - pool.idleCount;
    expect(await textOf((await copyCsvStream(ctx.database.db, sql`select 1 as one`)) as Readable)).toBe(
      `${UTF8_BOM}one\n1\n`,
    );
    await vi.waitFor(() => expect(checkedOut()).toBe(0));

    // A failing query: the stream fails with PostgreSQL's error, before any byte.
    const failing = (await copyCsvStream(
      ctx.database.db,
      sql`select 1 / (random() * 0)::int as x`,
    )) as Readable;
    const received: unknown[] = [];
    failing.on('data', (chunk) => received.push(chunk));
    await expect(new Promise((_, reject) => failing.on('error', reject))).rejects.toThrow(/division by zero/);
    expect(received).toEqual([]);

    // Aborted downloads (more than the pool's 10 connections): none stays checked out.
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const stream = (await copyCsvStream(
        ctx.database.db,
        sql`select g, repeat('x', 100) as filler from generate_series(1, 1000000) as g`,
      )) as Readable;
      await new Promise((resolve) => stream.once('data', resolve));
      stream.destroy();
    }
    await vi.waitFor(() => expect(checkedOut()).toBe(0));
    expect(await queryRows<{ one: number }>(ctx.database.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
  });
});
