import type { AuditAction, AuditEntityType, AuditValues } from '@back-office/contract/audit';
import type { ReferenceListKey } from '@back-office/contract/reference-lists';
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The audit trail: one row per change to a user, product, reference item or the settings (and per
 * personal-data download, anonymisation and purge of a subscriber, docs/decisions/019),
 * written in the transaction of the change. `actorUserId` has no foreign key on purpose: the trail
 * outlives the accounts it names, so the actor's name and email are copied in. Null actor = the system
 * (first start). `before`/`after` hold only the changed fields of an update, never secrets.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** From the application's clock, not `now()`, so tests and the trail agree on time. */
    occurredAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    actorUserId: integer(),
    actorName: text(),
    actorEmail: text(),
    entityType: text().$type<AuditEntityType>().notNull(),
    /** The reference list of a `reference_list_item` (`ctries`, `tags`, ...). */
    entityList: text().$type<ReferenceListKey>(),
    entityId: integer(),
    entityLabel: text().notNull(),
    action: text().$type<AuditAction>().notNull(),
    before: jsonb().$type<AuditValues>(),
    after: jsonb().$type<AuditValues>(),
  },
  (table) => [
    index('audit_events_occurred_at_idx').on(table.occurredAt.desc(), table.id.desc()),
    index('audit_events_entity_idx').on(table.entityType, table.entityId),
    check(
      'audit_events_entity_type_check',
      sql`${table.entityType} in ('user', 'product', 'reference_list_item', 'settings', 'sign_in', 'subscriber')`,
    ),
    check(
      'audit_events_action_check',
      sql`${table.action} in ('created', 'updated', 'deleted', 'role_changed', 'password_changed', 'sign_in_locked', 'personal_data_exported', 'anonymised', 'personal_data_purged')`,
    ),
  ],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;
export type NewAuditEventRow = typeof auditEvents.$inferInsert;
