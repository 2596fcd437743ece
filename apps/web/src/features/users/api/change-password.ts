import type { ChangeOwnPasswordInput } from '@back-office/contract/users';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export type ChangePasswordVariables = ChangeOwnPasswordInput & { userId: number };

/**
 * `PATCH /api/users/password/{currentUserId} {currentPassword, newPassword, confirmPassword}` (part 1
 * §3, §7 Users; `currentPassword` docs/decisions/011).
 * Any 2xx answer is a success; its body (the user) is not needed.
 */
export async function changePassword(input: ChangePasswordVariables): Promise<void> {
  await apiRequest(`/api/users/password/${input.userId}`, {
    method: 'PATCH',
    body: {
      currentPassword: input.currentPassword,
      newPassword: input.newPassword,
      confirmPassword: input.confirmPassword,
    },
  });
}

/** Mutation hook over {@link changePassword} (part 1 §2 Change password). */
export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
