import { createErrorFactory } from '../../lib/errors.ts';

export const createInvalidCredentialsError = createErrorFactory({
  code: 'auth.invalid_credentials',
  status: 401,
  title: 'Unauthorized',
});

export const createTooManyAttemptsError = createErrorFactory({
  code: 'auth.too_many_attempts',
  status: 429,
  title: 'Too Many Requests',
});

export const createInvalidPasswordTokenError = createErrorFactory({
  code: 'auth.invalid_password_token',
  status: 400,
  title: 'Bad Request',
});
