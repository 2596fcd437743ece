import { type CreateUserInput, type User, userSchema } from '@back-office/contract/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { usersQueryKey } from './get-users.ts';

export type UpdateUserVariables = CreateUserInput & { id: number };

/** `PATCH /api/users/{id} {id, fullName, email, role}` returns the updated user (part 1 §7 Users). */
export function updateUser(input: UpdateUserVariables): Promise<User> {
  return apiRequest(`/api/users/${input.id}`, {
    method: 'PATCH',
    body: { id: input.id, fullName: input.fullName, email: input.email, role: input.role },
    schema: userSchema,
  });
}

/** Updates a user, then refreshes the list from the server (no optimistic edit: nothing shows before the server accepted it). */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
