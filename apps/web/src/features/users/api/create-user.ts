import { type CreateUserInput, type User, userSchema } from '@back-office/contract/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { usersQueryKey } from './get-users.ts';

/** `POST /api/users {fullName, email, role}` returns the created user (part 1 §7 Users). */
export function createUser(input: CreateUserInput): Promise<User> {
  return apiRequest('/api/users', {
    method: 'POST',
    body: { fullName: input.fullName, email: input.email, role: input.role },
    schema: userSchema,
  });
}

/** Creates a user, then refreshes the list from the server (no optimistic edit: nothing shows before the server accepted it). */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
