import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { LoginInput, PasswordResetConfirm } from '@back-office/contract/auth';
import type { Database, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { createUnauthenticatedError } from '../../lib/errors.ts';
import { assertPasswordAllowed } from '../../lib/password-rules.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { MailRepository } from '../mail/mail.repository.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import {
  createInvalidCredentialsError,
  createInvalidPasswordTokenError,
  createTooManyAttemptsError,
} from './auth.errors.ts';
import type { AuthRepository } from './auth.repository.ts';
import type { TokenService } from './tokens.ts';

/**
 * Sign-in throttling (docs/decisions/011). Failures are counted over `windowMs` per
 * (account, client address) and per address: at the limit that pair, or that address, is locked for
 * 15 minutes, twice as long for each lockout in a row (within 24 hours of the end of the last), at
 * most 24 hours. The owner of
 * an account still signs in from another address while an attacker's address is locked.
 */
export const SIGN_IN_THROTTLE = {
  failuresPerAccountAndAddress: 5,
  failuresPerAddress: 30,
  windowMs: 15 * 60 * 1000,
  firstLockoutMs: 15 * 60 * 1000,
  longestLockoutMs: 24 * 60 * 60 * 1000,
  repeatWindowMs: 24 * 60 * 60 * 1000,
} as const;
/** Reset links emailed to one account per hour at most (docs/decisions/011); further requests send nothing. */
export const MAX_RESET_EMAILS_PER_HOUR = 3;
/** How long used links, ended sessions and old failures are kept before the purge (docs/decisions/011). */
export const SIGN_IN_RECORDS_KEPT_MS = 24 * 60 * 60 * 1000;
/** Validity of emailed links: 1 h to reset a password, 72 h to set a new account's first one. */
export const PASSWORD_LINK_TTL_MS = { reset: 60 * 60 * 1000, invite: 72 * 60 * 60 * 1000 } as const;

/** The signed-in person attached to a request. */
export type AuthUser = {
  id: number;
  email: string;
  fullName: string;
  role: 'Administrator' | 'User';
  sessionId: string;
};

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Lockout scopes: one account from one client address, and one address whatever the account. */
const accountScope = (email: string, address: string) => `account:${email.toLowerCase()}|${address}`;
const addressScope = (address: string) => `address:${address}`;

const tooManyAttempts = (until: Date, now: Date) => {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  const error = createTooManyAttemptsError(
    `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
  return Object.assign(error, {
    retryAfterSeconds: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)),
  });
};

const invalidLink = () =>
  createInvalidPasswordTokenError('This link is not valid any more: it was used, has expired or is wrong.', [
    { path: 'token', message: 'This link is not valid any more. Ask for a new one.' },
  ]);

/** Sign-in, sessions and emailed password links (docs/decisions/001). */
export function createAuthService({
  db,
  clock,
  tokens,
  authRepository,
  usersRepository,
  mailRepository,
  audit,
  publicUrl,
  onMailQueued,
}: {
  db: Database;
  clock: Clock;
  tokens: TokenService;
  authRepository: AuthRepository;
  usersRepository: UsersRepository;
  mailRepository: MailRepository;
  audit: AuditService;
  publicUrl: string;
  onMailQueued: () => void;
}) {
  /** Reset requests whose work is still running after their answer was sent (see requestPasswordReset). */
  const resetsUnderWay = new Set<Promise<void>>();

  /**
   * Records a failed sign-in and, at a limit of {@link SIGN_IN_THROTTLE}, locks the pair or the address
   * and writes the lockout in the audit trail, in one transaction.
   */
  async function recordFailure(email: string, address: string, now: Date) {
    const throttle = SIGN_IN_THROTTLE;
    await db.transaction(async (tx) => {
      await authRepository.recordLoginFailure(tx, { email, address, at: now });
      const failures = await authRepository.countRecentLoginFailures(tx, {
        email,
        address,
        since: new Date(now.getTime() - throttle.windowMs),
      });
      const lockouts: Array<{ scope: string; email: string | null }> = [];
      if (failures.forAccount >= throttle.failuresPerAccountAndAddress) {
        lockouts.push({ scope: accountScope(email, address), email });
        await authRepository.clearLoginFailures(tx, { email, address });
      }
      if (failures.fromAddress >= throttle.failuresPerAddress) {
        lockouts.push({ scope: addressScope(address), email: null });
        await authRepository.clearAddressFailures(tx, { address });
      }
      for (const lockout of lockouts) {
        const locked = await authRepository.lockScope(tx, {
          scope: lockout.scope,
          now,
          baseMs: throttle.firstLockoutMs,
          maxMs: throttle.longestLockoutMs,
          repeatWindowMs: throttle.repeatWindowMs,
        });
        if (!locked) continue;
        const account = lockout.email
          ? await usersRepository.findUserByEmail(tx, { email: lockout.email })
          : undefined;
        await audit.record(tx, {
          actor: null,
          entity: { type: 'sign_in', id: account?.id ?? null, label: lockout.email ?? address },
          action: 'sign_in_locked',
          after: {
            email: lockout.email,
            clientAddress: address,
            lockedUntil: locked.lockedUntil.toISOString(),
            minutes: Math.round((locked.lockedUntil.getTime() - now.getTime()) / 60_000),
            lockoutsInARow: locked.lockouts,
          },
        });
      }
    });
  }

  /**
   * Creates a single-use link for `user` and queues the email that carries it, on `tx`
   * (the caller's transaction). `invite` is sent to a new account, `reset` on request.
   */
  async function queuePasswordLink(
    tx: Executor,
    { user, purpose }: { user: { id: number; email: string; fullName: string }; purpose: 'invite' | 'reset' },
  ) {
    const now = clock.now();
    const token = randomBytes(32).toString('base64url');
    await authRepository.expireUserPasswordTokens(tx, { userId: user.id, now });
    await authRepository.insertPasswordToken(tx, {
      userId: user.id,
      tokenHash: sha256(token),
      purpose,
      createdAt: now,
      expiresAt: new Date(now.getTime() + PASSWORD_LINK_TTL_MS[purpose]),
    });
    const link = `${publicUrl}/#/password-reset/confirm?token=${token}`;
    const mail =
      purpose === 'invite'
        ? {
            subject: 'Your back office account',
            text: `Hello ${user.fullName},\n\nAn account has been created for you on the back office.\nYour sign-in email is ${user.email}.\n\nChoose your password with this link (valid for 72 hours, usable once):\n\n${link}\n`,
          }
        : {
            subject: 'Reset your back office password',
            text: `Hello ${user.fullName},\n\nSomeone asked to reset the password of ${user.email}.\nChoose a new password with this link (valid for 1 hour, usable once):\n\n${link}\n\nIf it was not you, ignore this email: your password stays as it is.\n`,
          };
    await mailRepository.enqueue(tx, { to: user.email, ...mail });
  }

  return {
    queuePasswordLink,

    /**
     * Voids every unused emailed link of account `userId` and ends its sessions but `keepSessionId`, in
     * the caller's transaction: after a change of its email, role or password (docs/decisions/011).
     */
    endAccountAccess: async (
      tx: Executor,
      { userId, keepSessionId }: { userId: number; keepSessionId?: string },
    ) => {
      await authRepository.expireUserPasswordTokens(tx, { userId, now: clock.now() });
      await authRepository.revokeUserSessions(tx, { userId, keepSessionId });
    },

    /**
     * `POST /auth/login` from the client at `address` (the request's IP). Records the session, updates
     * `lastLogin`, returns the token pair.
     * @throws 401 `auth.invalid_credentials`; 429 `auth.too_many_attempts` (with `retryAfterSeconds`)
     * while this account is locked from this address, or this address is (see {@link SIGN_IN_THROTTLE}).
     */
    login: async ({ email, password }: LoginInput, { address }: { address: string }) => {
      const now = clock.now();
      const lockedUntil = await authRepository.findActiveLockout(db, {
        scopes: [accountScope(email, address), addressScope(address)],
        now,
      });
      if (lockedUntil) throw tooManyAttempts(lockedUntil, now);
      const user = await usersRepository.findUserByEmail(db, { email });
      const valid = await verifyPassword(user?.passwordHash, password);
      if (!user || !valid) {
        await recordFailure(email, address, now);
        throw createInvalidCredentialsError('Wrong email or password.');
      }
      const sessionId = randomUUID();
      const issued = await tokens.issue({
        userId: user.id,
        sessionId,
        email: user.email,
        name: user.fullName,
        role: user.role,
      });
      await db.transaction(async (tx) => {
        await authRepository.createSession(tx, {
          id: sessionId,
          userId: user.id,
          expiresAt: issued.expiresAt,
        });
        await usersRepository.touchLastLogin(tx, { id: user.id, at: now });
        await authRepository.clearLoginFailures(tx, { email, address });
        await authRepository.clearLockout(tx, { scope: accountScope(email, address) });
      });
      return {
        id_token: issued.idToken,
        access_token: issued.accessToken,
        token_type: 'Bearer' as const,
        expires_in: issued.expiresIn,
      };
    },

    /**
     * Checks the password of a signed-in person confirming a sensitive change (their own password
     * change), throttled as sign-in is: a wrong one counts as a failed sign-in of the account from
     * `address`, and while that is locked nothing is checked (docs/decisions/011).
     * @returns whether the password is right.
     * @throws 429 `auth.too_many_attempts` (with `retryAfterSeconds`) while locked.
     */
    verifyOwnPassword: async ({
      email,
      passwordHash,
      password,
      address,
    }: {
      email: string;
      passwordHash: string | null;
      password: string;
      address: string;
    }): Promise<boolean> => {
      const now = clock.now();
      const lockedUntil = await authRepository.findActiveLockout(db, {
        scopes: [accountScope(email, address), addressScope(address)],
        now,
      });
      if (lockedUntil) throw tooManyAttempts(lockedUntil, now);
      const valid = await verifyPassword(passwordHash, password);
      if (!valid) await recordFailure(email, address, now);
      return valid;
    },

    /**
     * Resolves a bearer token to the signed-in user, checking that the session is still open.
     * @throws 401 for a missing, malformed, forged, expired or revoked token.
     */
    authenticate: async (token: string, use: 'id' | 'access'): Promise<AuthUser> => {
      const verified = await tokens.verify(token, use);
      const user = await authRepository.findSessionUser(db, {
        sessionId: verified.sessionId,
        userId: verified.userId,
        now: clock.now(),
      });
      if (!user) throw createUnauthenticatedError('The session has ended.');
      return { ...user, sessionId: verified.sessionId };
    },

    /** `POST /auth/logout`: ends the caller's session on the server. */
    logout: async ({ sessionId }: { sessionId: string }) => {
      await authRepository.revokeSession(db, { sessionId });
    },

    /**
     * `POST /auth/password-reset`: emails a link when the address exists, at most
     * {@link MAX_RESET_EMAILS_PER_HOUR} an hour per account (docs/decisions/011); says nothing either way. The
     * work is done after the answer, so that known and unknown addresses answer alike and as fast
     * (docs/decisions/011); failures go to `onError`.
     */
    requestPasswordReset: (
      { email }: { email: string },
      { onError }: { onError: (error: unknown) => void },
    ) => {
      const work = (async () => {
        const user = await usersRepository.findUserByEmail(db, { email });
        if (!user) return;
        const queued = await db.transaction(async (tx) => {
          // One at a time per account, so that simultaneous requests cannot pass the hourly limit together.
          await usersRepository.lockUser(tx, { id: user.id });
          const sent = await authRepository.countResetLinksSince(tx, {
            userId: user.id,
            since: new Date(clock.now().getTime() - 60 * 60 * 1000),
          });
          if (sent >= MAX_RESET_EMAILS_PER_HOUR) return false;
          await queuePasswordLink(tx, { user, purpose: 'reset' });
          return true;
        });
        if (queued) onMailQueued();
      })()
        .catch(onError)
        .finally(() => resetsUnderWay.delete(work));
      resetsUnderWay.add(work);
    },

    /** Resolves once the reset requests answered so far have done their work (tests, shutdown). */
    passwordResetsSettled: async () => {
      await Promise.all([...resetsUnderWay]);
    },

    /**
     * Deletes sign-in records older than {@link SIGN_IN_RECORDS_KEPT_MS}: failed attempts and spent
     * lockouts, ended sessions, used or expired links (docs/decisions/011). Run by the scheduled purge.
     * @returns how many rows of each kind went.
     */
    purgeSignInRecords: () =>
      authRepository.purgeExpired(db, { before: new Date(clock.now().getTime() - SIGN_IN_RECORDS_KEPT_MS) }),

    /**
     * `POST /auth/password-reset/confirm`: sets the password, uses up the link and ends every session.
     * A refused password leaves the link usable for another try.
     * @throws 400 `auth.invalid_password_token` for an unknown, used or expired token;
     * 400 `validation.password_rejected` naming `newPassword` for a common password or one made of
     * the account's email address (docs/security.md §Accounts and sign-in).
     */
    confirmPasswordReset: async ({ token, newPassword }: PasswordResetConfirm) => {
      const tokenHash = sha256(token);
      const owner = await authRepository.findPasswordTokenUser(db, { tokenHash, now: clock.now() });
      if (!owner) throw invalidLink();
      assertPasswordAllowed(newPassword, { email: owner.email, field: 'newPassword' });
      const passwordHash = await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        const now = clock.now();
        const consumed = await authRepository.consumePasswordToken(tx, { tokenHash, now });
        if (!consumed) throw invalidLink();
        const user = await usersRepository.setPasswordHash(tx, { id: consumed.userId, passwordHash });
        await authRepository.expireUserPasswordTokens(tx, { userId: consumed.userId, now });
        await authRepository.revokeUserSessions(tx, { userId: consumed.userId });
        // Audited as the person's own doing: the link proves who they are.
        if (user) {
          await audit.record(tx, {
            actor: user,
            entity: { type: 'user', id: user.id, label: user.fullName },
            action: 'password_changed',
          });
        }
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
