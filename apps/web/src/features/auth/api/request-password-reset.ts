import type { PasswordResetRequest } from '@back-office/contract/auth';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `POST /auth/password-reset {email}`: the server answers 202 whether or not the address exists and
 * emails a single-use link (part 1 §2 Password reset, §7 Identity provider).
 */
export function requestPasswordReset(input: PasswordResetRequest): Promise<void> {
  return apiRequest('/auth/password-reset', { method: 'POST', body: { email: input.email }, auth: 'none' });
}

/** Mutation hook over {@link requestPasswordReset}. */
export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
