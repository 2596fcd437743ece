import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/context.ts';
import { tags } from '../modules/reference-lists/reference-lists.table.ts';
import { preparedPerConnection } from './client.ts';

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
});
