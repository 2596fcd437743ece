import { createErrorFactory } from '../../lib/errors.ts';

export const createProductNotFoundError = createErrorFactory({
  code: 'products.not_found',
  status: 404,
  title: 'Not Found',
});

export const createProductIdMismatchError = createErrorFactory({
  code: 'validation.id_mismatch',
  status: 400,
  title: 'Bad Request',
});
