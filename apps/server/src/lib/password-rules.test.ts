import { PASSWORD_RULE_MESSAGES } from '@back-office/contract/auth';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { assertPasswordAllowed, findPasswordRuleBreach } from './password-rules.ts';

const email = 'Zoe.Martin@example.org';

describe('findPasswordRuleBreach', () => {
  it('refuses passwords of the common list, in any case', () => {
    for (const password of ['password123', 'PASSWORD123', 'qwertyuiop', '1234567890', 'Basketball']) {
      expect(findPasswordRuleBreach(password, { email })).toBe('common');
    }
  });

  it('refuses the email address, its part before @, or a password containing the address, in any case', () => {
    for (const password of [
      'zoe.martin@example.org',
      'ZOE.MARTIN@EXAMPLE.ORG',
      ' zoe.martin@example.org ',
      'zoe.martin',
      'Zoe.Martin',
      'zoe.martin@example.org!',
    ]) {
      expect(findPasswordRuleBreach(password, { email })).toBe('email');
    }
  });

  it('accepts an uncommon password that is not the email', () => {
    expect(findPasswordRuleBreach('violet-otter-on-the-quay', { email })).toBeUndefined();
    expect(findPasswordRuleBreach('zoe.martin-rides-bikes', { email })).toBeUndefined();
  });
});

describe('assertPasswordAllowed', () => {
  it('throws a 400 naming the given field with the message of the broken rule', () => {
    const attempt = () => assertPasswordAllowed('password123', { email, field: 'newPassword' });
    expect(attempt).toThrow(AppError);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({
        status: 400,
        code: 'validation.password_rejected',
        errors: [{ path: 'newPassword', message: PASSWORD_RULE_MESSAGES.common }],
      });
    }
    expect(() =>
      assertPasswordAllowed('violet-otter-on-the-quay', { email, field: 'newPassword' }),
    ).not.toThrow();
  });
});
