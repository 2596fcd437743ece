import { PASSWORD_RULE_MESSAGES } from '@back-office/contract/auth';
import { dictionary } from '@zxcvbn-ts/language-common';
import { createErrorFactory } from './errors.ts';

/**
 * A password rule (docs/security.md §Accounts and sign-in) that a password breaks: on the common list, or
 * made of the email address.
 */
export type PasswordRuleBreach = keyof typeof PASSWORD_RULE_MESSAGES;

let commonPasswords: Set<string> | undefined;

/**
 * The ~49,000 common passwords of `@zxcvbn-ts/language-common` (a maintained list), lower-cased,
 * built once on first use.
 */
function commonPasswordSet(): Set<string> {
  commonPasswords ??= new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));
  return commonPasswords;
}

/**
 * Which of the server's password rules `password` breaks for the account of `email`, or undefined.
 * The length rule lives in the contract (`newPasswordSchema`); these two need the server:
 * - `common`: the password, lower-cased, is on the common-password list;
 * - `email`: the password, ignoring case and surrounding spaces, is the email address or its part
 *   before `@`, or contains the whole address.
 */
export function findPasswordRuleBreach(
  password: string,
  { email }: { email: string },
): PasswordRuleBreach | undefined {
  const candidate = password.trim().toLowerCase();
  const address = email.trim().toLowerCase();
  const localPart = address.split('@')[0] ?? address;
  if (candidate === address || candidate === localPart || (address !== '' && candidate.includes(address))) {
    return 'email';
  }
  if (commonPasswordSet().has(password.toLowerCase())) return 'common';
  return undefined;
}

export const createPasswordRejectedError = createErrorFactory({
  code: 'validation.password_rejected',
  status: 400,
  title: 'Bad Request',
});

/**
 * Refuses a new password that breaks a rule of {@link findPasswordRuleBreach}. Called by every path
 * that sets a password: the emailed set-password/reset link, the change-password screen; the first
 * Administrator's `ADMIN_PASSWORD` is checked by the configuration with the same function.
 * @param field the body field that carried the password (`newPassword`), named in the error.
 * @throws 400 `validation.password_rejected` naming `field`, with {@link PASSWORD_RULE_MESSAGES}' text.
 */
export function assertPasswordAllowed(password: string, { email, field }: { email: string; field: string }) {
  const breach = findPasswordRuleBreach(password, { email });
  if (!breach) return;
  const message = PASSWORD_RULE_MESSAGES[breach];
  throw createPasswordRejectedError(message, [{ path: field, message }]);
}
