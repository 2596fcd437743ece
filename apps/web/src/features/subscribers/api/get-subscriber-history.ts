import { type HistoryEntry, historyEntrySchema } from '@back-office/contract/subscribers';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const historySchema = z.array(historyEntrySchema);

/** `GET /api/subscribers/{id}/history`: `[{description, user, date}]`, newest first (part 2 §7, §2.3). */
export function getSubscriberHistory(id: number, signal?: AbortSignal): Promise<HistoryEntry[]> {
  return apiRequest(`/api/subscribers/${id}/history`, {
    schema: historySchema,
    ...(signal ? { signal } : {}),
  });
}

/** Query options of a subscriber's history (always fetched afresh: actions add entries). */
export function subscriberHistoryQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['subscribers', 'history', id] as const,
    queryFn: ({ signal }) => getSubscriberHistory(id, signal),
    staleTime: 0,
  });
}

/** A subscriber's history (§2.3). */
export function useSubscriberHistory(id: number) {
  return useQuery(subscriberHistoryQueryOptions(id));
}
