import type { Role } from '@back-office/contract/users';
import { useSyncExternalStore } from 'react';

/**
 * Browser session (part 1 §3 Session data, §4 Session): the id token under the key `id_token`, the
 * access token under `access_token`, and the signed-in user's id, role, email and full name.
 * Authentication is judged by a present id token whose `exp` lies in the future.
 */

export const ID_TOKEN_KEY = 'id_token';
export const ACCESS_TOKEN_KEY = 'access_token';
export const SESSION_USER_KEY = 'session_user';

/** The signed-in user as the client keeps it (from `GET /api/users/{sub}` after login). */
export type SessionUser = {
  id: number;
  role: Role;
  email: string;
  fullName: string;
};

export type SessionTokens = {
  idToken: string;
  accessToken: string;
};

const listeners = new Set<() => void>();

function emitChange(): void {
  for (const listener of listeners) listener();
}

/**
 * Reads the payload of a JWT without verifying it (the server verifies every call).
 * Returns null when the token is not a well-formed JWT. Part 1 §4 Session.
 */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const binary = atob(padded);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Expiry of a JWT in milliseconds since the epoch, or null when it has none. Part 1 §4 Session. */
export function getTokenExpiry(token: string): number | null {
  const exp = decodeJwtPayload(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 : null;
}

/** True when the token is missing, malformed, without `exp`, or expired at `now`. Part 1 §4 Session. */
export function isTokenExpired(token: string | null, now: number = Date.now()): boolean {
  if (!token) return true;
  const expiry = getTokenExpiry(token);
  return expiry === null || expiry <= now;
}

/** The stored id token, if any (part 1 §3 Session data: key `id_token`). */
export function getIdToken(): string | null {
  return localStorage.getItem(ID_TOKEN_KEY);
}

let cachedUserRaw: string | null = null;
let cachedUser: SessionUser | null = null;

/**
 * The stored signed-in user (part 1 §3 Session data: id, role, email; plus the full name shown in the
 * navigation bar), or null. Returns the same object while the stored value is unchanged.
 */
export function getSessionUser(): SessionUser | null {
  const raw = localStorage.getItem(SESSION_USER_KEY);
  if (raw === cachedUserRaw) return cachedUser;
  cachedUserRaw = raw;
  cachedUser = null;
  if (raw) {
    try {
      const value = JSON.parse(raw) as Partial<SessionUser>;
      if (
        typeof value.id === 'number' &&
        (value.role === 'Administrator' || value.role === 'User') &&
        typeof value.email === 'string' &&
        typeof value.fullName === 'string'
      ) {
        cachedUser = { id: value.id, role: value.role, email: value.email, fullName: value.fullName };
      }
    } catch {
      cachedUser = null;
    }
  }
  return cachedUser;
}

/** True when an unexpired id token and the signed-in user are stored. Part 1 §4 Session, §6. */
export function isAuthenticated(now: number = Date.now()): boolean {
  return !isTokenExpired(getIdToken(), now) && getSessionUser() !== null;
}

/** Stores the tokens returned by `POST /auth/login`. Part 1 §4 Session. */
export function saveTokens(tokens: SessionTokens): void {
  localStorage.setItem(ID_TOKEN_KEY, tokens.idToken);
  localStorage.setItem(ACCESS_TOKEN_KEY, tokens.accessToken);
  emitChange();
}

/** Stores the signed-in user fetched after login. Part 1 §4 Session. */
export function saveSessionUser(user: SessionUser): void {
  localStorage.setItem(
    SESSION_USER_KEY,
    JSON.stringify({ id: user.id, role: user.role, email: user.email, fullName: user.fullName }),
  );
  emitChange();
}

/** Removes every piece of session data from the browser. Part 1 §4 Session (logout, expiry). */
export function clearSession(): void {
  localStorage.removeItem(ID_TOKEN_KEY);
  localStorage.removeItem(ACCESS_TOKEN_KEY);
  localStorage.removeItem(SESSION_USER_KEY);
  emitChange();
}

/** Subscribes to session changes in this tab and in other tabs (storage events); part 1 §4 Session. */
export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  const handleStorage = (event: StorageEvent) => {
    if (event.key === null || [ID_TOKEN_KEY, ACCESS_TOKEN_KEY, SESSION_USER_KEY].includes(event.key)) {
      listener();
    }
  };
  window.addEventListener('storage', handleStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', handleStorage);
  };
}

/** React hook: the signed-in user, re-rendering on login and logout. Part 1 §2 Navigation bar. */
export function useSessionUser(): SessionUser | null {
  return useSyncExternalStore(subscribeToSession, getSessionUser, getSessionUser);
}
