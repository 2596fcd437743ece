import { and, count, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../users/users.table.ts';
import { loginFailures, passwordTokens, sessions, signingKeys } from './auth.table.ts';

/** All SQL about sign-in: signing keys, sessions, emailed password tokens, failed attempts. */
export function createAuthRepository() {
  return {
    listSigningKeys: (db: Executor) => db.select().from(signingKeys).orderBy(desc(signingKeys.id)),

    insertSigningKey: async (db: Executor, { secret }: { secret: string }) => {
      const [row] = await db.insert(signingKeys).values({ secret }).returning();
      if (!row) throw new Error('insert into signing_keys returned no row');
      return row;
    },

    createSession: (db: Executor, session: { id: string; userId: number; expiresAt: Date }) =>
      db.insert(sessions).values(session),

    /** The user behind a session that is neither revoked nor expired at `now`, or undefined. */
    findSessionUser: async (
      db: Executor,
      { sessionId, userId, now }: { sessionId: string; userId: number; now: Date },
    ) => {
      const [row] = await db
        .select({ id: users.id, email: users.email, fullName: users.fullName, role: users.role })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(
          and(
            eq(sessions.id, sessionId),
            eq(sessions.userId, userId),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, now),
          ),
        );
      return row;
    },

    revokeSession: (db: Executor, { sessionId }: { sessionId: string }) =>
      db
        .update(sessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt))),

    /** Ends every session of a user, except `keepSessionId` when given (the caller's own). */
    revokeUserSessions: (
      db: Executor,
      { userId, keepSessionId }: { userId: number; keepSessionId?: string },
    ) =>
      db
        .update(sessions)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            eq(sessions.userId, userId),
            isNull(sessions.revokedAt),
            keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
          ),
        ),

    insertPasswordToken: (
      db: Executor,
      token: { userId: number; tokenHash: string; purpose: 'invite' | 'reset'; expiresAt: Date },
    ) => db.insert(passwordTokens).values(token),

    /** The account a token is for, if the token is unused and unexpired at `now` (read only). */
    findPasswordTokenUser: async (db: Executor, { tokenHash, now }: { tokenHash: string; now: Date }) => {
      const [row] = await db
        .select({ id: users.id, email: users.email })
        .from(passwordTokens)
        .innerJoin(users, eq(users.id, passwordTokens.userId))
        .where(
          and(
            eq(passwordTokens.tokenHash, tokenHash),
            isNull(passwordTokens.usedAt),
            gt(passwordTokens.expiresAt, now),
          ),
        );
      return row;
    },

    /** Marks a token used if it is unused and unexpired; returns its user id, atomically (single use). */
    consumePasswordToken: async (db: Executor, { tokenHash, now }: { tokenHash: string; now: Date }) => {
      const [row] = await db
        .update(passwordTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(passwordTokens.tokenHash, tokenHash),
            isNull(passwordTokens.usedAt),
            gt(passwordTokens.expiresAt, now),
          ),
        )
        .returning({ userId: passwordTokens.userId });
      return row;
    },

    /** Voids a user's other unused links once one is used or a new one is sent. */
    expireUserPasswordTokens: (db: Executor, { userId, now }: { userId: number; now: Date }) =>
      db
        .update(passwordTokens)
        .set({ usedAt: now })
        .where(and(eq(passwordTokens.userId, userId), isNull(passwordTokens.usedAt))),

    countRecentLoginFailures: async (db: Executor, { email, since }: { email: string; since: Date }) => {
      const [row] = await db
        .select({ n: count() })
        .from(loginFailures)
        .where(and(eq(sql`lower(${loginFailures.email})`, email.toLowerCase()), gt(loginFailures.at, since)));
      return row?.n ?? 0;
    },

    recordLoginFailure: (db: Executor, { email, at }: { email: string; at: Date }) =>
      db.insert(loginFailures).values({ email: email.toLowerCase(), at }),

    clearLoginFailures: (db: Executor, { email }: { email: string }) =>
      db.delete(loginFailures).where(eq(sql`lower(${loginFailures.email})`, email.toLowerCase())),
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
