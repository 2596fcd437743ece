import { and, count, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, preparedPerConnection } from '../../db/client.ts';
import { users } from '../users/users.table.ts';
import { loginFailures, loginLockouts, passwordTokens, sessions, signingKeys } from './auth.table.ts';

/**
 * The user behind an open session, as a prepared statement of `db`: every request runs it, so its
 * SQL is built once (and planned once per connection by PostgreSQL). `now` is an ISO 8601 instant.
 */
const sessionUserStatement = preparedPerConnection((db) =>
  db
    .select({ id: users.id, email: users.email, fullName: users.fullName, role: users.role })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare('find_session_user'),
);

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
      const [row] = await sessionUserStatement(db).execute({ sessionId, userId, now: now.toISOString() });
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
      token: {
        userId: number;
        tokenHash: string;
        purpose: 'invite' | 'reset';
        createdAt: Date;
        expiresAt: Date;
      },
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

    /** Failed sign-ins since `since`: for the email from this address, and from this address in all. */
    countRecentLoginFailures: async (
      db: Executor,
      { email, address, since }: { email: string; address: string; since: Date },
    ) => {
      const [row] = await db
        .select({
          forAccount:
            sql<number>`count(*) filter (where lower(${loginFailures.email}) = ${email.toLowerCase()})`.mapWith(
              Number,
            ),
          fromAddress: count(),
        })
        .from(loginFailures)
        .where(and(eq(loginFailures.address, address), gt(loginFailures.at, since)));
      return { forAccount: row?.forAccount ?? 0, fromAddress: row?.fromAddress ?? 0 };
    },

    recordLoginFailure: (
      db: Executor,
      { email, address, at }: { email: string; address: string; at: Date },
    ) => db.insert(loginFailures).values({ email: email.toLowerCase(), address, at }),

    /** Forgets the failures of the email from `address` (a sign-in succeeded, or they led to a lockout). */
    clearLoginFailures: (db: Executor, { email, address }: { email: string; address: string }) =>
      db
        .delete(loginFailures)
        .where(
          and(
            eq(sql`lower(${loginFailures.email})`, email.toLowerCase()),
            eq(loginFailures.address, address),
          ),
        ),

    /** Forgets every failure from `address` (they led to the address's lockout). */
    clearAddressFailures: (db: Executor, { address }: { address: string }) =>
      db.delete(loginFailures).where(eq(loginFailures.address, address)),

    /** The latest end of the lockouts among `scopes` still running at `now`, or undefined. */
    findActiveLockout: async (db: Executor, { scopes, now }: { scopes: string[]; now: Date }) => {
      const [row] = await db
        .select({
          lockedUntil: sql<Date>`max(${loginLockouts.lockedUntil})`.mapWith(loginLockouts.lockedUntil),
        })
        .from(loginLockouts)
        .where(and(inArray(loginLockouts.scope, scopes), gt(loginLockouts.lockedUntil, now)));
      return row?.lockedUntil ?? undefined;
    },

    /**
     * Locks `scope` from `now` for `baseMs`, doubled for each lockout in a row (one that follows the
     * end of the previous one within `repeatWindowMs`; the count restarts after a quiet spell), at
     * most `maxMs`. Does nothing while
     * the scope is already locked (two servers locking at once lock once). Returns the new lockout,
     * or undefined when it was already locked.
     */
    lockScope: async (
      db: Executor,
      {
        scope,
        now,
        baseMs,
        maxMs,
        repeatWindowMs,
      }: { scope: string; now: Date; baseMs: number; maxMs: number; repeatWindowMs: number },
    ) => {
      const repeatSince = new Date(now.getTime() - repeatWindowMs);
      const lockouts = sql`case when ${loginLockouts.lockedUntil} > ${repeatSince} then ${loginLockouts.lockouts} + 1 else 1 end`;
      const durationMs = (count: SQL) =>
        sql`least(${baseMs}::float8 * power(2, ${count} - 1), ${maxMs}::float8)`;
      const [row] = await db
        .insert(loginLockouts)
        .values({ scope, lockedUntil: new Date(now.getTime() + baseMs), lockouts: 1, lastLockedAt: now })
        .onConflictDoUpdate({
          target: loginLockouts.scope,
          set: {
            lockouts: sql`${lockouts}`,
            lockedUntil: sql`${now}::timestamptz + make_interval(secs => ${durationMs(lockouts)} / 1000)`,
            lastLockedAt: now,
          },
          setWhere: sql`${loginLockouts.lockedUntil} <= ${now}`,
        })
        .returning({ lockedUntil: loginLockouts.lockedUntil, lockouts: loginLockouts.lockouts });
      return row;
    },

    /** Forgets the lockout history of `scope` (its owner signed in). */
    clearLockout: (db: Executor, { scope }: { scope: string }) =>
      db.delete(loginLockouts).where(eq(loginLockouts.scope, scope)),

    /** How many reset links were sent to the account since `since` (docs/decisions/011: at most 3 an hour). */
    countResetLinksSince: async (db: Executor, { userId, since }: { userId: number; since: Date }) => {
      const [row] = await db
        .select({ n: count() })
        .from(passwordTokens)
        .where(
          and(
            eq(passwordTokens.userId, userId),
            eq(passwordTokens.purpose, 'reset'),
            gt(passwordTokens.createdAt, since),
          ),
        );
      return row?.n ?? 0;
    },

    /**
     * Deletes what sign-in no longer needs (docs/decisions/011): failures and lockouts older than `before`,
     * sessions that expired or were revoked before it, and links used or expired before it.
     * Returns how many rows of each went.
     */
    purgeExpired: async (db: Executor, { before }: { before: Date }) => {
      const failures = await db
        .delete(loginFailures)
        .where(lt(loginFailures.at, before))
        .returning({ id: loginFailures.id });
      const lockouts = await db
        .delete(loginLockouts)
        .where(and(lt(loginLockouts.lockedUntil, before), lt(loginLockouts.lastLockedAt, before)))
        .returning({ scope: loginLockouts.scope });
      const ended = await db
        .delete(sessions)
        .where(
          or(
            lt(sessions.expiresAt, before),
            and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, before)),
          ),
        )
        .returning({ id: sessions.id });
      const links = await db
        .delete(passwordTokens)
        .where(
          or(
            lt(passwordTokens.expiresAt, before),
            and(isNotNull(passwordTokens.usedAt), lt(passwordTokens.usedAt, before)),
          ),
        )
        .returning({ id: passwordTokens.id });
      return {
        failures: failures.length,
        lockouts: lockouts.length,
        sessions: ended.length,
        links: links.length,
      };
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
