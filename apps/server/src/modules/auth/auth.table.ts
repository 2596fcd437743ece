import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table.ts';

/** Secrets that sign id and access tokens; the newest signs, all verify (so tokens survive a restart). */
export const signingKeys = pgTable('signing_keys', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  secret: text().notNull(),
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** One row per sign-in; a token is valid only while its session is neither revoked nor expired. */
export const sessions = pgTable(
  'sessions',
  {
    id: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
);

/** Single-use links emailed to set a password: `invite` for a new account, `reset` for a forgotten one. Only the SHA-256 of the token is kept. */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    purpose: text({ enum: ['invite', 'reset'] }).notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('password_tokens_user_id_idx').on(table.userId),
    index('password_tokens_created_at_idx').on(table.userId, table.createdAt),
  ],
);

/**
 * Failed sign-ins: the email tried and the client's address, counted over a window per (account,
 * address) and per address to throttle guessing across server instances (docs/decisions/011).
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    email: text().notNull(),
    address: text().notNull().default(''),
    at: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('login_failures_email_at_idx').on(sql`lower(${table.email})`, table.at),
    index('login_failures_address_at_idx').on(table.address, table.at),
    index('login_failures_at_idx').on(table.at),
  ],
);

/**
 * Sign-in lockouts: `scope` is `account:{email}|{address}` or `address:{address}`. `lockouts` counts
 * the lockouts in a row (the next is twice as long) while the last one is under 24 hours old.
 */
export const loginLockouts = pgTable('login_lockouts', {
  scope: text().primaryKey(),
  lockedUntil: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  lockouts: integer().notNull(),
  lastLockedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
});
