import { describe, expect, it } from 'vitest';
import { idTokenExpiringIn, makeJwt, signIn } from '../testing/session.ts';
import {
  clearSession,
  decodeJwtPayload,
  getSessionUser,
  ID_TOKEN_KEY,
  isAuthenticated,
  isTokenExpired,
} from './session.ts';

describe('session', () => {
  it('decodes the payload of a JWT, including non-ASCII claims', () => {
    const token = makeJwt({ sub: '7', name: 'Zoë Müller', exp: 123 });
    expect(decodeJwtPayload(token)).toEqual({ sub: '7', name: 'Zoë Müller', exp: 123 });
  });

  it('treats malformed tokens and tokens without exp as expired', () => {
    expect(decodeJwtPayload('not-a-jwt')).toBeNull();
    expect(isTokenExpired('not-a-jwt')).toBe(true);
    expect(isTokenExpired(makeJwt({ sub: '1' }))).toBe(true);
    expect(isTokenExpired(null)).toBe(true);
  });

  it('judges expiry by the exp claim', () => {
    expect(isTokenExpired(idTokenExpiringIn(60))).toBe(false);
    expect(isTokenExpired(idTokenExpiringIn(-1))).toBe(true);
  });

  it('is authenticated only with an unexpired id token and a stored user', () => {
    expect(isAuthenticated()).toBe(false);
    signIn({ expiresInSeconds: 60 });
    expect(isAuthenticated()).toBe(true);
    expect(getSessionUser()).toMatchObject({ id: 1, role: 'Administrator' });
    localStorage.setItem(ID_TOKEN_KEY, idTokenExpiringIn(-5));
    expect(isAuthenticated()).toBe(false);
  });

  it('clears everything on logout', () => {
    signIn();
    clearSession();
    expect(localStorage.getItem('id_token')).toBeNull();
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(getSessionUser()).toBeNull();
  });
});
