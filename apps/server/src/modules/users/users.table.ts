import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Staff accounts (part 1 §3 User). `passwordHash` is null until the person sets a password through the emailed link. */
export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    fullName: text().notNull(),
    email: text().notNull(),
    role: text({ enum: ['Administrator', 'User'] }).notNull(),
    passwordHash: text(),
    picture: text(),
    lastLogin: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_lower_unique').on(sql`lower(${table.email})`),
    check('users_role_check', sql`${table.role} in ('Administrator', 'User')`),
  ],
);

export type UserRow = typeof users.$inferSelect;
