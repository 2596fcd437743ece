import { z } from 'zod';
import { newPasswordSchema } from './auth.ts';
import { MAX_ID, plainString } from './common.ts';

/**
 * Users (part 1 §2 Users, §3 User, §5 User form, §7 Users).
 */

export const ROLES = ['Administrator', 'User'] as const;
export const roleSchema = z.enum(ROLES, { message: 'Role is required' });
export type Role = z.infer<typeof roleSchema>;

/** A user as the API returns it. `lastLogin` is an ISO 8601 timestamp or null; `name` is the user name (the email). */
export const userSchema = z.object({
  id: z.number().int().positive(),
  fullName: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  lastLogin: z.string().nullable(),
  picture: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

export const userListSchema = z.array(userSchema);

/** `POST /api/users` body. Messages are the spec's (part 1 §5): the email format is checked by the server too. */
export const createUserInputSchema = z.object({
  fullName: plainString({ message: 'Name is required' })
    .trim()
    .min(4, { message: 'Name is required' })
    .max(200, { message: 'The name must have at most 200 characters.' }),
  email: plainString({ message: 'Email is required' })
    .trim()
    .min(4, { message: 'Email is required' })
    .max(254, { message: 'The email must have at most 254 characters.' })
    .pipe(z.email({ message: 'Valid email is required' })),
  role: roleSchema,
});
export type CreateUserInput = z.infer<typeof createUserInputSchema>;

/** `PATCH /api/users/{id}` body: the create fields plus `id` (which must match the path). */
export const updateUserInputSchema = createUserInputSchema.extend({
  id: z.number().int().positive().max(MAX_ID).optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserInputSchema>;

/** Refinement of the password forms: the confirmation repeats the new password. */
const passwordsMatch = (value: { newPassword: string; confirmPassword: string }) =>
  value.newPassword === value.confirmPassword;
const PASSWORDS_DIFFER = { message: 'Passwords do not match.', path: ['confirmPassword'] };

const newPasswordFields = {
  newPassword: newPasswordSchema,
  confirmPassword: plainString({ message: 'Please enter password confirmation' }).min(1, {
    message: 'Please enter password confirmation',
  }),
};

/**
 * `PATCH /api/users/password/{id}` body (part 1 §3: `newPassword`, `confirmPassword`; §5 messages).
 * `currentPassword` is required when people change their own password (docs/decisions/011): whoever finds a
 * signed-in screen cannot take the account over; an Administrator setting someone else's needs none.
 */
export const changePasswordInputSchema = z
  .object({
    currentPassword: plainString().max(200, { message: 'At most 200 characters.' }).optional(),
    ...newPasswordFields,
  })
  .refine(passwordsMatch, PASSWORDS_DIFFER);
export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

/** The Change password form's values: one's own password, so the current one is required (docs/decisions/011). */
export const changeOwnPasswordInputSchema = z
  .object({
    currentPassword: plainString({ message: 'Please enter your current password' })
      .min(1, { message: 'Please enter your current password' })
      .max(200, { message: 'At most 200 characters.' }),
    ...newPasswordFields,
  })
  .refine(passwordsMatch, PASSWORDS_DIFFER);
export type ChangeOwnPasswordInput = z.infer<typeof changeOwnPasswordInputSchema>;
