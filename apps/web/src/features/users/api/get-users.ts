import { type User, userListSchema } from '@back-office/contract/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Query key of the users list (part 1 §7 Users). */
export const usersQueryKey = ['users'] as const;

/** `GET /api/users` (part 1 §7 Users). */
export function getUsers(signal?: AbortSignal): Promise<User[]> {
  return apiRequest('/api/users', { schema: userListSchema, ...(signal ? { signal } : {}) });
}

/** Query options of the users list (part 1 §4: lists load on screen entry). */
export function usersQueryOptions() {
  return queryOptions({ queryKey: usersQueryKey, queryFn: ({ signal }) => getUsers(signal) });
}

/** The users list (part 1 §2 Users). */
export function useUsers() {
  return useQuery(usersQueryOptions());
}
