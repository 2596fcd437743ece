import type { Role } from '@back-office/contract/users';
import { saveSessionUser, saveTokens } from '../lib/session.ts';

/** Base64url of the UTF-8 bytes of `value`, as JWT libraries encode. */
function base64Url(value: string): string {
  const binary = Array.from(new TextEncoder().encode(value), (byte) => String.fromCharCode(byte)).join('');
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned JWT with the given claims (the client never verifies signatures). */
export function makeJwt(claims: Record<string, unknown>): string {
  return `${base64Url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64Url(JSON.stringify(claims))}.signature`;
}

/** An id token expiring `seconds` from now (negative: already expired). */
export function idTokenExpiringIn(seconds: number, claims: Record<string, unknown> = {}): string {
  return makeJwt({
    sub: '1',
    email: 'admin@example.org',
    name: 'Ada Admin',
    role: 'Administrator',
    exp: Math.floor(Date.now() / 1000) + seconds,
    ...claims,
  });
}

/** Stores a signed-in session as the login flow would. */
export function signIn(
  options: { role?: Role; expiresInSeconds?: number; id?: number; fullName?: string } = {},
) {
  const role = options.role ?? 'Administrator';
  const id = options.id ?? 1;
  const fullName = options.fullName ?? (role === 'Administrator' ? 'Ada Admin' : 'Ulysses User');
  const email = role === 'Administrator' ? 'admin@example.org' : 'user@example.org';
  saveTokens({
    idToken: idTokenExpiringIn(options.expiresInSeconds ?? 3600, {
      sub: String(id),
      role,
      email,
      name: fullName,
    }),
    accessToken: 'access-token',
  });
  saveSessionUser({ id, role, email, fullName });
  return { id, role, email, fullName };
}
