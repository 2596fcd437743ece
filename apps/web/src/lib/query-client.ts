import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error.ts';

/**
 * Builds the TanStack Query client (part 1 §4: lists load on screen entry): no retry on client errors
 * (4xx), one retry otherwise; a failure then shows the screen's error toast (part 1 §8).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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
}

/** The application's query cache, cleared on logout and expiry (part 1 §4 Session). */
export const queryClient = createQueryClient();
