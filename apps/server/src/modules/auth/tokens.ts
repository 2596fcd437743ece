import { createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { createUnauthenticatedError } from '../../lib/errors.ts';
import type { AuthRepository } from './auth.repository.ts';

const ISSUER = 'back-office';
const AUDIENCE = 'back-office';
/**
 * A token naming a key this server does not have reloads the keys at most this often (docs/decisions/011):
 * forged tokens with made-up `kid`s must not each cost a database query.
 */
export const UNKNOWN_KEY_RELOAD_INTERVAL_MS = 60_000;

/**
 * Verified tokens kept in memory, most recent last. Every request of a signed-in screen sends the same
 * token, and checking its HS256 signature through WebCrypto took more CPU than the rest of a simple
 * read. A kept token is still checked for expiry on each use, and its session in the database.
 */
const VERIFIED_TOKENS_KEPT = 1000;

/** What a verified token says: user id, session id, and for id tokens the person's claims. */
export type VerifiedToken = { userId: number; sessionId: string; use: 'id' | 'access' };

/**
 * Signs and verifies the id and access tokens (docs/decisions/001): HS256 JWTs whose
 * `sub` is the user id as a string, `sid` the session, `token_use` `id` or `access`; the id token
 * also says the organisation's time zone in the standard `zoneinfo` claim, for the client's days.
 * The signing secret is generated on first start and kept in the database.
 */
export function createTokenService({
  db,
  authRepository,
  clock,
  ttlSeconds,
  timeZone = DEFAULT_TIME_ZONE,
}: {
  db: Database;
  authRepository: AuthRepository;
  clock: Clock;
  ttlSeconds: number;
  /** The organisation's IANA zone, given to the client as the id token's `zoneinfo` (docs/decisions/012). */
  timeZone?: string;
}) {
  // KeyObjects, imported once: jose would import raw bytes again on every sign and verify.
  let keys = new Map<string, KeyObject>();
  let currentKid: string | undefined;
  let loadedAt: number | undefined;
  // One load at a time: requests that arrive while it runs wait for it rather than find no key.
  let loading: Promise<void> | undefined;
  // Token -> what it says and when it expires (ms since the epoch); see VERIFIED_TOKENS_KEPT.
  const verifiedTokens = new Map<string, { verified: VerifiedToken; expiresAtMs: number }>();

  function keepVerified(token: string, verified: VerifiedToken, expiresAtSeconds: number) {
    if (verifiedTokens.size >= VERIFIED_TOKENS_KEPT) {
      const oldest = verifiedTokens.keys().next().value;
      if (oldest !== undefined) verifiedTokens.delete(oldest);
    }
    verifiedTokens.set(token, { verified, expiresAtMs: expiresAtSeconds * 1000 });
  }

  function loadKeys(): Promise<void> {
    loading ??= readKeys().finally(() => {
      loading = undefined;
    });
    return loading;
  }

  async function readKeys() {
    const rows = await authRepository.listSigningKeys(db);
    keys = new Map(
      rows.map((row) => [String(row.id), createSecretKey(Buffer.from(row.secret, 'base64url'))]),
    );
    currentKid = rows[0] ? String(rows[0].id) : undefined;
    loadedAt = clock.now().getTime();
  }

  async function currentKey(): Promise<[string, KeyObject]> {
    if (!currentKid) await loadKeys();
    const key = currentKid ? keys.get(currentKid) : undefined;
    if (!currentKid || !key) throw new Error('no signing key: ensureSigningKey() was not run');
    return [currentKid, key];
  }

  return {
    ttlSeconds,

    /** Creates the signing secret when the database has none (first start). */
    ensureSigningKey: async () => {
      const existing = await authRepository.listSigningKeys(db);
      if (existing.length === 0) {
        await authRepository.insertSigningKey(db, { secret: randomBytes(32).toString('base64url') });
      }
      await loadKeys();
    },

    /** Issues the pair for a session; `expiresIn` is in seconds. */
    issue: async (claims: {
      userId: number;
      sessionId: string;
      email: string;
      name: string;
      role: string;
    }) => {
      const [kid, key] = await currentKey();
      const issuedAt = Math.floor(clock.now().getTime() / 1000);
      const expiresAt = issuedAt + ttlSeconds;
      const sign = (payload: Record<string, unknown>) =>
        new SignJWT(payload)
          .setProtectedHeader({ alg: 'HS256', kid, typ: 'JWT' })
          .setSubject(String(claims.userId))
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setIssuedAt(issuedAt)
          .setExpirationTime(expiresAt)
          .sign(key);
      const [idToken, accessToken] = await Promise.all([
        sign({
          sid: claims.sessionId,
          token_use: 'id',
          email: claims.email,
          name: claims.name,
          role: claims.role,
          zoneinfo: timeZone,
        }),
        sign({ sid: claims.sessionId, token_use: 'access' }),
      ]);
      return { idToken, accessToken, expiresIn: ttlSeconds, expiresAt: new Date(expiresAt * 1000) };
    },

    /**
     * Verifies signature, issuer, audience, expiry and use.
     * @throws AppError 401 `auth.unauthenticated` for any bad token.
     */
    verify: async (token: string, use: 'id' | 'access'): Promise<VerifiedToken> => {
      const kept = verifiedTokens.get(token);
      // An expired or misused token goes through the full check below, which says why it fails.
      if (kept && kept.verified.use === use && clock.now().getTime() < kept.expiresAtMs) return kept.verified;
      try {
        const { payload } = await jwtVerify(
          token,
          async (header) => {
            const kid = header.kid ?? '';
            const reloadDue =
              loadedAt === undefined || clock.now().getTime() - loadedAt >= UNKNOWN_KEY_RELOAD_INTERVAL_MS;
            if (!keys.has(kid) && loading) await loading;
            else if (!keys.has(kid) && /^\d{1,9}$/.test(kid) && reloadDue) await loadKeys();
            const key = keys.get(kid);
            if (!key) throw new joseErrors.JWSSignatureVerificationFailed('unknown key');
            return key;
          },
          {
            issuer: ISSUER,
            audience: AUDIENCE,
            algorithms: ['HS256'],
            requiredClaims: ['exp'],
            currentDate: clock.now(),
          },
        );
        const userId = Number(payload.sub);
        if (
          payload.token_use !== use ||
          !Number.isInteger(userId) ||
          userId <= 0 ||
          typeof payload.sid !== 'string'
        ) {
          throw createUnauthenticatedError('The token is not valid here.');
        }
        const verified: VerifiedToken = { userId, sessionId: payload.sid, use };
        // jwtVerify refuses a token without `exp` (requiredClaims below), so it is always there.
        keepVerified(token, verified, payload.exp as number);
        return verified;
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired)
          throw createUnauthenticatedError('The session has expired.');
        if (error instanceof joseErrors.JOSEError)
          throw createUnauthenticatedError('The token is not valid.');
        throw error;
      }
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
