import type { Role } from '@back-office/contract/users';
import { getSessionUser, type SessionUser, useSessionUser } from '../../lib/session.ts';

/** The signed-in user: `{id, role, email, fullName}` (part 1 §3 Session data). */
export type CurrentUser = SessionUser;

/** The signed-in user as stored in the session, or null (route guards, outside React). */
export function getCurrentUser(): CurrentUser | null {
  return getSessionUser();
}

/** The signed-in user, re-rendering on sign-in and sign-out (part 1 §2 Navigation bar), or null. */
export function useCurrentUser(): CurrentUser | null {
  return useSessionUser();
}

/**
 * True for an Administrator (part 1 §6): the Users, Annual Receipts, Settings and Audit screens are
 * theirs only.
 */
export function isAdministrator(user: { role: Role } | null | undefined): boolean {
  return user?.role === 'Administrator';
}
