import { z } from 'zod';
import { EMAIL_PATTERN, plainString } from './common.ts';

/**
 * Identity provider payloads (docs/decisions/001; part 1 §2 Login, §5 Login).
 */

/**
 * Minimum length of a new password (docs/security.md §Accounts and sign-in), checked here so the client's
 * forms say it too.
 */
export const PASSWORD_MIN_LENGTH = 10;

/**
 * Messages of the password rules only the server checks (docs/security.md §Accounts and sign-in;
 * apps/server/src/lib/password-rules.ts): a password from the list of common passwords, or one made of the
 * account's email address. They come back as a 400 naming the password field; kept here so that client and
 * server tell the same thing.
 */
export const PASSWORD_RULE_MESSAGES = {
  common: 'This password is too common: it is on lists that attackers try first. Choose another one.',
  email: 'The password must not be your email address. Choose another one.',
} as const;

/** `POST /auth/login` body. Messages are the spec's login form texts (part 1 §5). */
export const loginInputSchema = z.object({
  email: plainString({ message: 'Valid email is required' })
    .trim()
    .min(4, { message: 'Valid email is required' })
    .regex(EMAIL_PATTERN, { message: 'Valid email is required' }),
  password: plainString({ message: 'Password is required' })
    .min(1, { message: 'Password is required' })
    .min(8, { message: 'Password is required' })
    .max(200),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

/** `POST /auth/login` 200 answer. `expires_in` is in seconds. */
export const loginResponseSchema = z.object({
  id_token: z.string(),
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** `GET /auth/userinfo` answer: `sub` is the user id as a string. */
export const userInfoSchema = z.object({
  sub: z.string(),
  email: z.string(),
  name: z.string(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** `POST /auth/password-reset` body (part 1 §2 Password reset, §5). Always answers 202. */
export const passwordResetRequestSchema = z.object({
  email: plainString({ message: 'Valid email is required' })
    .trim()
    .min(4, { message: 'Valid email is required' })
    .regex(EMAIL_PATTERN, { message: 'Valid email is required' }),
});
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** A new password: at least {@link PASSWORD_MIN_LENGTH} characters, at most 200. */
export const newPasswordSchema = plainString({ message: 'Please enter new password' })
  .min(1, { message: 'Please enter new password' })
  .min(PASSWORD_MIN_LENGTH, {
    message: `The password must have at least ${PASSWORD_MIN_LENGTH} characters.`,
  })
  .max(200, { message: 'The password must have at most 200 characters.' });

/** `POST /auth/password-reset/confirm` body: the emailed single-use token and the new password. 204 on success. */
export const passwordResetConfirmSchema = z.object({
  token: plainString().min(1).max(200),
  newPassword: newPasswordSchema,
});
export type PasswordResetConfirm = z.infer<typeof passwordResetConfirmSchema>;

/** Claims of the id token (a JWT): `sub` is the user id as a string, `exp` in seconds since the epoch. */
export const idTokenClaimsSchema = z.object({
  sub: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(['Administrator', 'User']),
  exp: z.number(),
});
export type IdTokenClaims = z.infer<typeof idTokenClaimsSchema>;
