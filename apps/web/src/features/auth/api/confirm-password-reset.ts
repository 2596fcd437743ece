import type { PasswordResetConfirm } from '@back-office/contract/auth';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `POST /auth/password-reset/confirm {token, newPassword}` -> 204; 400 for a bad, used or expired
 * token (part 1 §7 Identity provider; used for resets and for a new account's first password).
 */
export function confirmPasswordReset(input: PasswordResetConfirm): Promise<void> {
  return apiRequest('/auth/password-reset/confirm', {
    method: 'POST',
    body: { token: input.token, newPassword: input.newPassword },
    auth: 'none',
  });
}

/** Mutation hook over {@link confirmPasswordReset}. */
export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset });
}
