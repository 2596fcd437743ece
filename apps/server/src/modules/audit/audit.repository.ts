import type { AuditEvent, AuditSearchQuery, AuditSearchResult } from '@back-office/contract/audit';
import { calendarDayRange, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import { type AnyColumn, and, count, desc, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { foldForSearch, foldSql } from '../../lib/search-text.ts';
import { type AuditEventRow, auditEvents, type NewAuditEventRow } from './audit.table.ts';

/** The wire shape of an audit event (contract `auditEventSchema`). */
export function toAuditEventDto(row: AuditEventRow): AuditEvent {
  return {
    id: row.id,
    occurredAt: row.occurredAt.toISOString(),
    actor:
      row.actorUserId === null
        ? null
        : { id: row.actorUserId, name: row.actorName ?? '', email: row.actorEmail ?? '' },
    entityType: row.entityType,
    entityList: row.entityList ?? null,
    entityId: row.entityId,
    entityLabel: row.entityLabel,
    action: row.action,
    before: row.before,
    after: row.after,
  };
}

/**
 * Contains, case- and accent-insensitive (`emile` finds `Émile`), without LIKE's wildcards (`%` and `_`
 * in a name are plain text).
 */
const contains = (column: AnyColumn, needle: string) =>
  sql`strpos(${foldSql(sql`coalesce(${column}, '')`)}, ${foldForSearch(needle)}) > 0`;

function searchFilter(query: AuditSearchQuery, timeZone: string): SQL | undefined {
  const actor = query.actor?.trim();
  // `from` and `to` are whole days of the zone, both included: [start of from, start of the day after to).
  const { start, end } = calendarDayRange({ from: query.from, to: query.to }, timeZone);
  return and(
    query.entityType ? eq(auditEvents.entityType, query.entityType) : undefined,
    actor ? or(contains(auditEvents.actorName, actor), contains(auditEvents.actorEmail, actor)) : undefined,
    // Bounds on the column itself (not on a computed day) so the occurred_at index serves them.
    start ? gte(auditEvents.occurredAt, start) : undefined,
    end ? lt(auditEvents.occurredAt, end) : undefined,
  );
}

/** All SQL of the audit trail; day filters are days of `timeZone` (docs/decisions/012). */
export function createAuditRepository({ timeZone = DEFAULT_TIME_ZONE }: { timeZone?: string } = {}) {
  return {
    /** Appends one event; call it with the transaction handle of the change it records. */
    insert: async (db: Executor, event: NewAuditEventRow) => {
      await db.insert(auditEvents).values(event);
    },

    /**
     * One page of the events matching `query`, newest first (ties by id, newest first), and how many
     * match in all. `listfrom` is 1-based.
     */
    search: async (db: Executor, query: AuditSearchQuery): Promise<AuditSearchResult> => {
      const where = searchFilter(query, timeZone);
      const [total] = await db.select({ n: count() }).from(auditEvents).where(where);
      const rows = await db
        .select()
        .from(auditEvents)
        .where(where)
        .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id))
        .limit(query.listlength)
        .offset(query.listfrom - 1);
      return { count: total?.n ?? 0, models: rows.map(toAuditEventDto) };
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
