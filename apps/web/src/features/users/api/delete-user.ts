import type { User } from '@back-office/contract/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { usersQueryKey } from './get-users.ts';

/** `DELETE /api/users/{id}` (part 1 §7 Users). */
export function deleteUser(id: number): Promise<void> {
  return apiRequest(`/api/users/${id}`, { method: 'DELETE' });
}

/** Removes a deleted user from the cached list once its row has faded out (part 1 §4 Row delete). */
export function useForgetDeletedUser() {
  const queryClient = useQueryClient();
  return (id: number) => {
    queryClient.setQueryData<User[]>(usersQueryKey, (users) => users?.filter((user) => user.id !== id));
    return queryClient.invalidateQueries({ queryKey: usersQueryKey });
  };
}

/** Deletes a user on the server; the list drops the row only after the server said yes. */
export function useDeleteUser() {
  return useMutation({ mutationFn: deleteUser });
}
