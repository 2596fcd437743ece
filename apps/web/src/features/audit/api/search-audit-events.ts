import { type AuditEntityType, type AuditEvent, auditSearchResultSchema } from '@back-office/contract/audit';
import type { InfinitePage } from '../../../components/infinite-table.tsx';
import { apiRequest } from '../../../lib/api-client.ts';

/** The Audit screen's filters as typed: empty strings mean "any". Dates are `YYYY-MM-DD`. */
export type AuditFilters = {
  entityType: AuditEntityType | '';
  actor: string;
  from: string;
  to: string;
};

export const EMPTY_AUDIT_FILTERS: AuditFilters = { entityType: '', actor: '', from: '', to: '' };

/** The root of every audit search key (`['audit', 'search', ...]`). */
export const auditQueryKeyRoot = ['audit', 'search'] as const;

/** Query key of one search: the filters as searched and the search's number (Search again = fresh list). */
export function auditSearchQueryKey(filters: AuditFilters, searchNumber: number) {
  return [...auditQueryKeyRoot, filters, searchNumber] as const;
}

/** The query string of `GET /api/audit`: only the filters given, then the page. */
export function auditSearchParams(filters: AuditFilters, listfrom: number, listlength: number) {
  const query = new URLSearchParams();
  if (filters.entityType) query.set('entityType', filters.entityType);
  if (filters.actor.trim()) query.set('actor', filters.actor.trim());
  if (filters.from) query.set('from', filters.from);
  if (filters.to) query.set('to', filters.to);
  query.set('listfrom', String(listfrom));
  query.set('listlength', String(listlength));
  return query;
}

/**
 * `GET /api/audit` (issue 8 §8; Administrators only): one page of audit events, newest first, with the
 * number of matches.
 */
export async function searchAuditEvents(
  filters: AuditFilters,
  listfrom: number,
  listlength: number,
  signal?: AbortSignal,
): Promise<InfinitePage<AuditEvent>> {
  const query = auditSearchParams(filters, listfrom, listlength);
  const result = await apiRequest(`/api/audit?${query.toString()}`, {
    schema: auditSearchResultSchema,
    ...(signal ? { signal } : {}),
  });
  return { count: result.count, rows: result.models };
}
