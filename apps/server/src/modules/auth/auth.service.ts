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

/** Failed sign-ins allowed per address within {@link LOGIN_FAILURE_WINDOW_MS} before 429. */
export const MAX_LOGIN_FAILURES = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
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

const invalidLink = () =>
  createInvalidPasswordTokenError('This link is not valid any more: it was used, has expired or is wrong.', [
    { path: 'token', message: 'This link is not valid any more. Ask for a new one.' },
  ]);

/** Sign-in, sessions and emailed password links (DESIGN.md "Identity provider"). */
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
     * `POST /auth/login`. Records the session, updates `lastLogin`, returns the token pair.
     * @throws 401 `auth.invalid_credentials`; 429 `auth.too_many_attempts` after
     * {@link MAX_LOGIN_FAILURES} failures for the address within 15 minutes.
     */
    login: async ({ email, password }: LoginInput) => {
      const now = clock.now();
      const failures = await authRepository.countRecentLoginFailures(db, {
        email,
        since: new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS),
      });
      if (failures >= MAX_LOGIN_FAILURES) {
        throw createTooManyAttemptsError(
          'Too many failed sign-ins for this address. Try again in 15 minutes.',
        );
      }
      const user = await usersRepository.findUserByEmail(db, { email });
      const valid = await verifyPassword(user?.passwordHash, password);
      if (!user || !valid) {
        await authRepository.recordLoginFailure(db, { email, at: now });
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
        await authRepository.clearLoginFailures(tx, { email });
      });
      return {
        id_token: issued.idToken,
        access_token: issued.accessToken,
        token_type: 'Bearer' as const,
        expires_in: issued.expiresIn,
      };
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

    /** `POST /auth/password-reset`: emails a link when the address exists; says nothing either way. */
    requestPasswordReset: async ({ email }: { email: string }) => {
      const user = await usersRepository.findUserByEmail(db, { email });
      if (!user) return;
      await db.transaction((tx) => queuePasswordLink(tx, { user, purpose: 'reset' }));
      onMailQueued();
    },

    /**
     * `POST /auth/password-reset/confirm`: sets the password, uses up the link and ends every session.
     * A refused password leaves the link usable for another try.
     * @throws 400 `auth.invalid_password_token` for an unknown, used or expired token;
     * 400 `validation.password_rejected` naming `newPassword` for a common password or one made of
     * the account's email address (issue 8 §3).
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
        // Audited as the person's own doing (issue 8 §8): the link proves who they are.
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
