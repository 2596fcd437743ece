import { type LoginInput, loginResponseSchema, userInfoSchema } from '@back-office/contract/auth';
import { userSchema } from '@back-office/contract/users';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { type SessionUser, saveSessionUser, saveTokens } from '../../../lib/session.ts';

/**
 * Signs in (part 1 §4 Session, §7 Identity provider): `POST /auth/login` for the tokens,
 * `GET /auth/userinfo` with the access token for the subject id, then `GET /api/users/{sub}` with
 * the id token for the user's id, role and email. The session is stored only once all three succeed.
 */
export async function loginWithPassword(input: LoginInput): Promise<SessionUser> {
  const tokens = await apiRequest('/auth/login', {
    method: 'POST',
    body: { email: input.email, password: input.password },
    auth: 'none',
    handleUnauthorized: false,
    schema: loginResponseSchema,
  });
  const info = await apiRequest('/auth/userinfo', {
    auth: { bearer: tokens.access_token },
    handleUnauthorized: false,
    schema: userInfoSchema,
  });
  const user = await apiRequest(`/api/users/${encodeURIComponent(info.sub)}`, {
    auth: { bearer: tokens.id_token },
    handleUnauthorized: false,
    schema: userSchema,
  });
  const sessionUser: SessionUser = {
    id: user.id,
    role: user.role,
    email: user.email,
    fullName: user.fullName,
  };
  saveTokens({ idToken: tokens.id_token, accessToken: tokens.access_token });
  saveSessionUser(sessionUser);
  return sessionUser;
}

/** Mutation hook over {@link loginWithPassword} (part 1 §2 Login). */
export function useLogin() {
  return useMutation({ mutationFn: loginWithPassword });
}
