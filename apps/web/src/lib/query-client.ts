import { MutationCache, QueryClient, type QueryMeta } from '@tanstack/react-query';
import { ApiError } from './api-error.ts';

/**
 * `meta` of a query that summarises data any change may touch (the dashboard's widgets, part 1 §2
 * Dashboard): it is invalidated after every successful mutation of the tab, so it is fresh when next shown.
 */
export const REFRESH_AFTER_CHANGE: QueryMeta = { refreshAfterChange: true };

/**
 * Builds the TanStack Query client (part 1 §4: lists load on screen entry): no retry on client errors
 * (4xx), one retry otherwise; a failure then shows the screen's error toast (part 1 §8). After any
 * successful mutation, the queries marked {@link REFRESH_AFTER_CHANGE} are invalidated (one place, so a
 * new mutation cannot forget the dashboard).
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    mutationCache: new MutationCache({
      onSuccess: () =>
        client.invalidateQueries({ predicate: (query) => query.meta?.refreshAfterChange === true }),
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
          return failureCount < 1;
        },
      },
      mutations: { retry: false },
    },
  });
  return client;
}

/** The application's query cache, cleared on logout and expiry (part 1 §4 Session). */
export const queryClient = createQueryClient();
