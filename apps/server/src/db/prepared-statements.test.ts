import type { PGlite } from '@electric-sql/pglite';
import { eq, type Logger, sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/context.ts';
import { tags } from '../modules/reference-lists/reference-lists.table.ts';
import { type Database, preparedPerConnection } from './client.ts';

const tagNamed = preparedPerConnection((db) =>
  db
    .select({ id: tags.id })
    .from(tags)
    .where(eq(tags.name, sql.placeholder('name')))
    .prepare('test_tag_named'),
);

describe('preparedPerConnection', () => {
  const ctx = useTestApp();

  it('runs a statement kept from an earlier transaction inside the caller’s transaction', async () => {
    const { db } = ctx.database;
    // Run by turns: each transaction takes a pooled connection (on PostgreSQL) that an earlier one used.
    for (let round = 0; round < 4; round++) {
      const name = `Prepared ${round}`;
      const seen = await db.transaction(async (tx) => {
        await tx.insert(tags).values({ name });
        const inside = await tagNamed(tx).execute({ name });
        // Uncommitted: only the transaction's own connection sees the row. (On the embedded database,
        // one connection, `db` would wait for the transaction.)
        const outside = process.env.TEST_DATABASE_URL ? await tagNamed(db).execute({ name }) : [];
        return { inside: inside.length, outside: outside.length };
      });
      expect(seen).toEqual({ inside: 1, outside: 0 });
    }
    // Two at once, on two connections: each finds its own row, which the other cannot see yet.
    const both = await Promise.all(
      ['Left', 'Right'].map((name) =>
        db.transaction(async (tx) => {
          await tx.insert(tags).values({ name });
          await tx.execute(sql`select pg_sleep(0.05)`);
          return (await tagNamed(tx).execute({ name })).length;
        }),
      ),
    );
    expect(both).toEqual([1, 1]);
    const rolledBack = db.transaction(async (tx) => {
      await tx.insert(tags).values({ name: 'Rolled back' });
      expect(await tagNamed(tx).execute({ name: 'Rolled back' })).toHaveLength(1);
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    expect(await tagNamed(db).execute({ name: 'Rolled back' })).toHaveLength(0);
    expect(await tagNamed(db).execute({ name: 'Prepared 3' })).toHaveLength(1);
  });

  it('keeps a statement per Drizzle instance: it logs through the instance that runs it', async () => {
    const { db, kind } = ctx.database;
    const client = (db as unknown as { session: { client: unknown } }).session.client;
    // Two more instances over the connection of `db`, each recording the statements it runs (as the
    // benchmark's raw SQL baselines do).
    const recording = () => {
      const texts: string[] = [];
      const logger: Logger = { logQuery: (text) => texts.push(text) };
      const instance = (kind === 'pglite'
        ? drizzlePglite(client as PGlite, { casing: 'snake_case', logger })
        : drizzlePostgres(client as pg.Pool, { casing: 'snake_case', logger })) as unknown as Database;
      return { instance, texts };
    };
    const first = recording();
    const second = recording();
    await tagNamed(db).execute({ name: 'Nobody' });
    await tagNamed(first.instance).execute({ name: 'Nobody' });
    await tagNamed(second.instance).execute({ name: 'Nobody' });
    await second.instance.transaction((tx) => tagNamed(tx).execute({ name: 'Nobody' }));
    expect(first.texts.filter((text) => text.includes('"tags"'))).toHaveLength(1);
    expect(second.texts.filter((text) => text.includes('"tags"'))).toHaveLength(2);
  });
});
