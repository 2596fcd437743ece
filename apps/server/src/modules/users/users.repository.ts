import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { foldSql } from '../../lib/search-text.ts';
import { type UserRow, users } from './users.table.ts';

/** All SQL about staff accounts (part 1 §7 Users). */
export function createUsersRepository() {
  return {
    listUsers: (db: Executor) =>
      db
        .select()
        .from(users)
        .orderBy(asc(foldSql(users.fullName)), asc(users.id)),

    findUserById: async (db: Executor, { id }: { id: number }): Promise<UserRow | undefined> => {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },

    findUserByEmail: async (db: Executor, { email }: { email: string }): Promise<UserRow | undefined> => {
      const [row] = await db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
      return row;
    },

    /** True when another account (not `exceptId`) already uses this address, case-insensitive. */
    isEmailTaken: async (db: Executor, { email, exceptId }: { email: string; exceptId?: number }) => {
      const [row] = await db
        .select({ n: count() })
        .from(users)
        .where(
          and(
            eq(sql`lower(${users.email})`, email.toLowerCase()),
            exceptId === undefined ? undefined : ne(users.id, exceptId),
          ),
        );
      return (row?.n ?? 0) > 0;
    },

    countAdministrators: async (db: Executor) => {
      const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, 'Administrator'));
      return row?.n ?? 0;
    },

    countUsers: async (db: Executor) => {
      const [row] = await db.select({ n: count() }).from(users);
      return row?.n ?? 0;
    },

    insertUser: async (
      db: Executor,
      user: { fullName: string; email: string; role: UserRow['role']; passwordHash?: string | null },
    ): Promise<UserRow> => {
      const [row] = await db.insert(users).values(user).returning();
      if (!row) throw new Error('insert into users returned no row');
      return row;
    },

    updateUser: async (
      db: Executor,
      { id, ...changes }: { id: number; fullName: string; email: string; role: UserRow['role'] },
    ): Promise<UserRow | undefined> => {
      const [row] = await db
        .update(users)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(eq(users.id, id))
        .returning();
      return row;
    },

    setPasswordHash: async (db: Executor, { id, passwordHash }: { id: number; passwordHash: string }) => {
      const [row] = await db
        .update(users)
        .set({ passwordHash, updatedAt: sql`now()` })
        .where(eq(users.id, id))
        .returning();
      return row;
    },

    touchLastLogin: (db: Executor, { id, at }: { id: number; at: Date }) =>
      db.update(users).set({ lastLogin: at }).where(eq(users.id, id)),

    deleteUser: async (db: Executor, { id }: { id: number }) => {
      const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
      return rows.length > 0;
    },

    /** Locks one account's row until the transaction ends (one reset request at a time per account). */
    lockUser: (db: Executor, { id }: { id: number }) =>
      db.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update'),

    /** Locks the Administrator rows so two concurrent demotions cannot remove the last one. */
    lockAdministrators: (db: Executor) =>
      db.select({ id: users.id }).from(users).where(eq(users.role, 'Administrator')).for('update'),
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
