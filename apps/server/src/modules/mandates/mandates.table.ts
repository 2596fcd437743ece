import type { MandateStatus, MandateType } from '@back-office/contract/mandates';
import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { subscribers } from '../subscribers/subscribers.table.ts';

/**
 * SEPA direct-debit mandates (contract `mandates`, docs/decisions/027, migration 0040): a subscriber's
 * signed authorisations to debit `iban`, each under its unique reference `rum` (at most 35 characters of
 * the SEPA set). `last_collected_on` is the day of the last collection (null while never used); a
 * mandate unused for 36 months after it (or after `signed_on`) expires. `original_rum`,
 * `original_iban` and `amended_on` hold a change of reference or account of a used mandate until the
 * next collection has sent it as an amendment.
 */
export const mandates = pgTable(
  'mandates',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    subscriberId: integer()
      .notNull()
      .references(() => subscribers.id, { onDelete: 'cascade' }),
    rum: text().notNull(),
    iban: text().notNull(),
    bic: text(),
    signedOn: date({ mode: 'string' }).notNull(),
    type: text().$type<MandateType>().notNull(),
    status: text().$type<MandateStatus>().notNull().default('active'),
    lastCollectedOn: date({ mode: 'string' }),
    revokedOn: date({ mode: 'string' }),
    revokedReason: text(),
    suspendedOn: date({ mode: 'string' }),
    suspendedReason: text(),
    originalRum: text(),
    originalIban: text(),
    amendedOn: date({ mode: 'string' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    unique('mandates_rum_key').on(table.rum),
    index('mandates_subscriber_idx').on(table.subscriberId),
    index('mandates_iban_idx').on(table.iban).where(sql`${table.iban} <> ''`),
    index('mandates_active_last_use_idx')
      .on(sql`(coalesce(${table.lastCollectedOn}, ${table.signedOn}))`)
      .where(sql`${table.status} = 'active'`),
    check(
      'mandates_rum_check',
      sql`${table.rum} ~ '^[A-Za-z0-9/?:().,''+ -]{1,35}$' and ${table.rum} !~ '(^/|/$|//)'`,
    ),
    check('mandates_iban_check', sql`${table.iban} ~ '^[A-Z0-9]{0,34}$'`),
    check(
      'mandates_bic_check',
      sql`${table.bic} is null or ${table.bic} ~ '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$'`,
    ),
    check('mandates_type_check', sql`${table.type} in ('recurring', 'oneOff')`),
    check('mandates_status_check', sql`${table.status} in ('active', 'revoked', 'expired', 'suspended')`),
  ],
);

export type MandateRow = typeof mandates.$inferSelect;
