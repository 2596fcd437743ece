import type {
  AuditAction,
  AuditSearchQuery,
  AuditSearchResult,
  AuditValues,
} from '@back-office/contract/audit';
import type { ReferenceListKey } from '@back-office/contract/reference-lists';
import type { Database, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuditRepository } from './audit.repository.ts';

/** Who made a change: the signed-in user (an `AuthUser` fits), or null for the system (first start). */
export type AuditActor = { id: number; fullName: string; email: string } | null;

/** What a change is about; `label` is its name at the time. */
export type AuditEntity =
  | { type: 'user' | 'product' | 'settings' | 'sign_in' | 'subscriber'; id: number | null; label: string }
  | { type: 'reference_list_item'; list: ReferenceListKey; id: number; label: string };

/**
 * One change to record. Give the whole record as it was (`before`) and as it is (`after`): a
 * creation needs only `after`, a deletion only `before`, and an update keeps only the fields that
 * differ. Never pass secrets (password hashes, tokens) or large blobs: describe them instead.
 */
export type AuditChange = {
  actor: AuditActor;
  entity: AuditEntity;
  action: AuditAction;
  before?: AuditValues | null;
  after?: AuditValues | null;
};

/**
 * The fields whose value differs between `before` and `after` (a field missing on one side counts as
 * null), as two objects with the same keys; null when nothing differs.
 */
export function changedFields(
  before: AuditValues,
  after: AuditValues,
): { before: AuditValues; after: AuditValues } | null {
  const changedBefore: AuditValues = {};
  const changedAfter: AuditValues = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[key] ?? null;
    const is = after[key] ?? null;
    if (was === is) continue;
    changedBefore[key] = was;
    changedAfter[key] = is;
  }
  return Object.keys(changedAfter).length > 0 ? { before: changedBefore, after: changedAfter } : null;
}

/** Actions on a subscriber's personal data, whose `after` says what was done (docs/decisions/019). */
const PERSONAL_DATA_ACTIONS = new Set<AuditAction>([
  'personal_data_exported',
  'anonymised',
  'personal_data_purged',
]);

/** The audit trail: written by the services in their own transactions, read by Administrators. */
export function createAuditService({
  db,
  repository,
  clock,
}: {
  db: Database;
  repository: AuditRepository;
  clock: Clock;
}) {
  return {
    /**
     * Appends `change` to the trail through `tx`, the transaction of the change itself, so the event
     * exists exactly when the change does. An update that changed no field writes nothing.
     * @returns whether an event was written.
     */
    record: async (tx: Executor, change: AuditChange): Promise<boolean> => {
      let before: AuditValues | null = null;
      let after: AuditValues | null = null;
      if (change.action === 'created' || change.action === 'sign_in_locked') after = change.after ?? {};
      else if (PERSONAL_DATA_ACTIONS.has(change.action)) after = change.after ?? null;
      else if (change.action === 'deleted') before = change.before ?? {};
      else if (change.action === 'updated' || change.action === 'role_changed') {
        const changed = changedFields(change.before ?? {}, change.after ?? {});
        if (!changed) return false;
        ({ before, after } = changed);
      }
      const { actor, entity } = change;
      await repository.insert(tx, {
        occurredAt: clock.now(),
        actorUserId: actor?.id ?? null,
        actorName: actor?.fullName ?? null,
        actorEmail: actor?.email ?? null,
        entityType: entity.type,
        entityList: entity.type === 'reference_list_item' ? entity.list : null,
        entityId: entity.id,
        entityLabel: entity.label,
        action: change.action,
        before,
        after,
      });
      return true;
    },

    /** One page of events, newest first, with the number matching. */
    search: (query: AuditSearchQuery): Promise<AuditSearchResult> => repository.search(db, query),
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
