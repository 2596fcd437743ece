import { type Settings, settingsSchema } from '@back-office/contract/settings';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Query key of the organisation settings. */
export const settingsQueryKey = ['settings'] as const;

/** `GET /api/settings`: the organisation settings, readable by every signed-in user (documents need them). */
export function getSettings(signal?: AbortSignal): Promise<Settings> {
  return apiRequest('/api/settings', { schema: settingsSchema, ...(signal ? { signal } : {}) });
}

/** Query options of the organisation settings. */
export function settingsQueryOptions() {
  return queryOptions({ queryKey: settingsQueryKey, queryFn: ({ signal }) => getSettings(signal) });
}

/** The organisation settings: the organisation identity used on documents and emails. */
export function useSettings() {
  return useQuery(settingsQueryOptions());
}
