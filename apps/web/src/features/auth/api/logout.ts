import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { endSession } from '../../../lib/end-session.ts';
import { getIdToken } from '../../../lib/session.ts';

/**
 * Tells the server the session ends: `POST /auth/logout` with the id token. Best effort: a failure
 * is ignored because the client forgets its tokens anyway (part 1 §4: "Logout clears the session").
 */
export async function sendLogout(idToken: string): Promise<void> {
  try {
    await apiRequest('/auth/logout', {
      method: 'POST',
      auth: { bearer: idToken },
      handleUnauthorized: false,
    });
  } catch {
    // Best effort: the local session is already gone.
  }
}

/**
 * Returns the logout action (part 1 §2 Navigation bar "Logout", §4): clears the session and the
 * query cache, goes to the login screen, and notifies the server in the background.
 */
export function useLogout(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    const idToken = getIdToken();
    endSession();
    if (idToken) void sendLogout(idToken);
    void navigate(paths.login.href(), { replace: true });
  }, [navigate]);
}
