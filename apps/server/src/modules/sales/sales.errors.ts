import { createErrorFactory } from '../../lib/errors.ts';

export const createSaleNotFoundError = createErrorFactory({
  code: 'sales.not_found',
  status: 404,
  title: 'Not Found',
});

export const createSaleInvalidError = createErrorFactory({
  code: 'sales.invalid',
  status: 400,
  title: 'Bad Request',
});

export const createSaleSubscriberUnknownError = createErrorFactory({
  code: 'sales.unknown_subscriber',
  status: 400,
  title: 'Bad Request',
});
