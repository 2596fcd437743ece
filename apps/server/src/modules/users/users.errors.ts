import { createErrorFactory } from '../../lib/errors.ts';

export const createUserNotFoundError = createErrorFactory({
  code: 'users.not_found',
  status: 404,
  title: 'Not Found',
});

export const createEmailTakenError = createErrorFactory({
  code: 'users.email_taken',
  status: 409,
  title: 'Conflict',
});

export const createLastAdministratorError = createErrorFactory({
  code: 'users.last_administrator',
  status: 409,
  title: 'Conflict',
});

export const createCannotDeleteSelfError = createErrorFactory({
  code: 'users.cannot_delete_self',
  status: 409,
  title: 'Conflict',
});

export const createWrongCurrentPasswordError = createErrorFactory({
  code: 'users.wrong_current_password',
  status: 400,
  title: 'Bad Request',
});

export const createIdMismatchError = createErrorFactory({
  code: 'validation.id_mismatch',
  status: 400,
  title: 'Bad Request',
});
