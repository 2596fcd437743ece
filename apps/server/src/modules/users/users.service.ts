import type {
  ChangePasswordInput,
  CreateUserInput,
  UpdateUserInput,
  User,
} from '@back-office/contract/users';
import type { Database, Executor } from '../../db/client.ts';
import { assertPasswordAllowed } from '../../lib/password-rules.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { postgresErrorCode, UNIQUE_VIOLATION } from '../../lib/postgres-errors.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { AuthService, AuthUser } from '../auth/auth.service.ts';
import {
  createCannotDeleteSelfError,
  createEmailTakenError,
  createIdMismatchError,
  createLastAdministratorError,
  createUserNotFoundError,
  createWrongCurrentPasswordError,
} from './users.errors.ts';
import type { UsersRepository } from './users.repository.ts';
import type { UserRow } from './users.table.ts';

/** The wire shape of a user (part 1 §3 User): `name` is the user name, which is the email. */
export function toUserDto(row: UserRow): User {
  return {
    id: row.id,
    fullName: row.fullName,
    name: row.email,
    email: row.email,
    role: row.role,
    lastLogin: row.lastLogin ? row.lastLogin.toISOString() : null,
    picture: row.picture,
  };
}

const emailTaken = (email: string) =>
  createEmailTakenError(`The email address ${email} is already used by another account.`, [
    { path: 'email', message: 'This email address is already used by another account.' },
  ]);

const isUniqueViolation = (error: unknown) => postgresErrorCode(error) === UNIQUE_VIOLATION;

/** What the audit trail keeps of an account: never its password hash. */
const auditedUser = (row: UserRow) => ({ fullName: row.fullName, email: row.email, role: row.role });
const auditedEntity = (row: UserRow) => ({ type: 'user' as const, id: row.id, label: row.fullName });

/** Staff accounts (part 1 §2 Users, §7 Users). */
export function createUsersService({
  db,
  usersRepository,
  authService,
  audit,
  onMailQueued,
}: {
  db: Database;
  usersRepository: UsersRepository;
  authService: AuthService;
  audit: AuditService;
  onMailQueued: () => void;
}) {
  async function getRow(tx: Executor, id: number) {
    const row = await usersRepository.findUserById(tx, { id });
    if (!row) throw createUserNotFoundError(`No user has id ${id}.`);
    return row;
  }

  /**
   * After a change of an account's email, role or password: every emailed link of the account stops
   * working and its sessions end, but for `keepSessionId` (the caller's own, when it is theirs).
   * Whoever received an old link, or holds an old session, is out (docs/decisions/011).
   */
  async function endAccountAccess(tx: Executor, userId: number, keepSessionId?: string) {
    await authService.endAccountAccess(tx, { userId, keepSessionId });
  }

  /** Refuses to leave the organisation without an Administrator. Locks the Administrator rows. */
  async function assertAnotherAdministrator(tx: Executor, userId: number, action: string) {
    const administrators = await usersRepository.lockAdministrators(tx);
    if (administrators.length <= 1 && administrators.some((row) => row.id === userId)) {
      throw createLastAdministratorError(`You cannot ${action} the last Administrator.`);
    }
  }

  return {
    listUsers: async (): Promise<User[]> => (await usersRepository.listUsers(db)).map(toUserDto),

    /** @throws 404 `users.not_found` */
    getUser: async ({ id }: { id: number }): Promise<User> => toUserDto(await getRow(db, id)),

    /**
     * Creates the account and emails its set-password link in one transaction, audited as `actor`'s.
     * @throws 409 `users.email_taken`
     */
    createUser: async ({ input, actor }: { input: CreateUserInput; actor: AuthUser }): Promise<User> => {
      try {
        const row = await db.transaction(async (tx) => {
          if (await usersRepository.isEmailTaken(tx, { email: input.email })) throw emailTaken(input.email);
          const created = await usersRepository.insertUser(tx, input);
          await authService.queuePasswordLink(tx, { user: created, purpose: 'invite' });
          await audit.record(tx, {
            actor,
            entity: auditedEntity(created),
            action: 'created',
            after: auditedUser(created),
          });
          return created;
        });
        onMailQueued();
        return toUserDto(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken(input.email);
        throw error;
      }
    },

    /**
     * Updates name, email and role, audited as `actor`'s (`role_changed` when the role changed). A
     * change of email or role voids the account's emailed links and ends its sessions (the caller's
     * own stays open when they edit themselves), docs/decisions/011.
     * @throws 400 when the body's id differs from the path; 404; 409 `users.email_taken` or `users.last_administrator`.
     */
    updateUser: async ({
      id,
      input,
      actor,
    }: {
      id: number;
      input: UpdateUserInput;
      actor: AuthUser;
    }): Promise<User> => {
      if (input.id !== undefined && input.id !== id) {
        throw createIdMismatchError(`The body's id ${input.id} differs from the path's id ${id}.`, [
          { path: 'id', message: 'The id must match the one in the path.' },
        ]);
      }
      try {
        const row = await db.transaction(async (tx) => {
          const before = await getRow(tx, id);
          if (await usersRepository.isEmailTaken(tx, { email: input.email, exceptId: id }))
            throw emailTaken(input.email);
          if (before.role === 'Administrator' && input.role !== 'Administrator') {
            await assertAnotherAdministrator(tx, id, 'remove the role of');
          }
          const updated = await usersRepository.updateUser(tx, {
            id,
            fullName: input.fullName,
            email: input.email,
            role: input.role,
          });
          if (!updated) throw createUserNotFoundError(`No user has id ${id}.`);
          if (before.role !== updated.role || before.email.toLowerCase() !== updated.email.toLowerCase()) {
            await endAccountAccess(tx, id, actor.id === id ? actor.sessionId : undefined);
          }
          await audit.record(tx, {
            actor,
            entity: auditedEntity(updated),
            action: before.role !== updated.role ? 'role_changed' : 'updated',
            before: auditedUser(before),
            after: auditedUser(updated),
          });
          return updated;
        });
        return toUserDto(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken(input.email);
        throw error;
      }
    },

    /**
     * Deletes the account and its sessions, audited as `actor`'s.
     * @throws 404; 409 `users.cannot_delete_self` or `users.last_administrator`.
     */
    deleteUser: async ({ id, actor }: { id: number; actor: AuthUser }) => {
      if (id === actor.id) throw createCannotDeleteSelfError('You cannot delete your own account.');
      await db.transaction(async (tx) => {
        const row = await getRow(tx, id);
        if (row.role === 'Administrator') await assertAnotherAdministrator(tx, id, 'delete');
        await usersRepository.deleteUser(tx, { id });
        await audit.record(tx, {
          actor,
          entity: auditedEntity(row),
          action: 'deleted',
          before: auditedUser(row),
        });
      });
    },

    /**
     * Sets a new password; voids the account's emailed links and ends its other sessions (the caller's
     * own stays open). People changing their own password give `currentPassword` (docs/decisions/011).
     * Audited as `password_changed` without values.
     * @throws 404; 400 `users.wrong_current_password` naming `currentPassword` when it is missing or
     * wrong on one's own account (counted as a failed sign-in: 429 once locked, as sign-in is); 400 `validation.password_rejected` naming `newPassword` for a
     * common password or one made of the account's email address (docs/security.md §Accounts and sign-in).
     */
    changePassword: async ({
      id,
      input,
      actor,
      address,
    }: {
      id: number;
      input: ChangePasswordInput;
      actor: AuthUser;
      /** The client's address: wrong current passwords count as failed sign-ins from it. */
      address: string;
    }): Promise<User> => {
      const target = await getRow(db, id);
      const currentPasswordRight =
        actor.id !== id ||
        (await authService.verifyOwnPassword({
          email: target.email,
          passwordHash: target.passwordHash,
          password: input.currentPassword ?? '',
          address,
        }));
      if (!currentPasswordRight) {
        throw createWrongCurrentPasswordError('The current password is wrong.', [
          { path: 'currentPassword', message: 'Your current password is wrong.' },
        ]);
      }
      assertPasswordAllowed(input.newPassword, { email: target.email, field: 'newPassword' });
      const passwordHash = await hashPassword(input.newPassword);
      const row = await db.transaction(async (tx) => {
        await getRow(tx, id);
        const updated = await usersRepository.setPasswordHash(tx, { id, passwordHash });
        if (!updated) throw createUserNotFoundError(`No user has id ${id}.`);
        await endAccountAccess(tx, id, actor.id === id ? actor.sessionId : undefined);
        // The fact only: a password (or its hash) never enters the trail.
        await audit.record(tx, { actor, entity: auditedEntity(updated), action: 'password_changed' });
        return updated;
      });
      return toUserDto(row);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
