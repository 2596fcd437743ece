import { redirect } from 'react-router';
import { paths } from '../config/paths.ts';
import { getCurrentUser, isAdministrator } from '../entities/current-user/index.ts';
import { endSession } from '../lib/end-session.ts';
import { getIdToken, isAuthenticated } from '../lib/session.ts';

/**
 * Route guard of every signed-in screen (part 1 §2, §4, §6), run as a loader on every navigation:
 * a missing or expired id token ends whatever is left of the session and goes to the login screen.
 * Unlike the legacy guard, it really checks the token's expiry (part 1 §4 Session).
 */
export function requireSignedIn(): null {
  if (!isAuthenticated()) {
    if (getIdToken() !== null || getCurrentUser() !== null) endSession();
    throw redirect(paths.login.href());
  }
  return null;
}

/** Route guard of Administrator screens (part 1 §6): a signed-in User goes to /unauthorized. */
export function requireAdministrator(): null {
  requireSignedIn();
  if (!isAdministrator(getCurrentUser())) throw redirect(paths.unauthorized.href());
  return null;
}

/** Guards re-run on every navigation, not only when their own route's params change. */
export function alwaysRevalidate(): boolean {
  return true;
}
