import {
  type AuditEntityType,
  type AuditEvent,
  auditSearchQuerySchema,
  auditSearchResultSchema,
} from '@back-office/contract/audit';
import type { InfinitePage } from '../../../components/infinite-table.tsx';
import { apiRequest } from '../../../lib/api-client.ts';
import { searchQueryString } from '../../../lib/search-query.ts';

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
  const actor = filters.actor.trim();
  const query = searchQueryString(auditSearchQuerySchema, {
    ...(filters.entityType ? { entityType: filters.entityType } : {}),
    ...(actor ? { actor } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
    listfrom,
    listlength,
  });
  return new URLSearchParams(query);
}

/**
 * `GET /api/audit` (Administrators only): one page of audit events, newest first, with the
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
