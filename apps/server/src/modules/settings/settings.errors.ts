import { createErrorFactory } from '../../lib/errors.ts';

export const createInvalidLogoError = createErrorFactory({
  code: 'settings.invalid_logo',
  status: 400,
  title: 'Bad Request',
});

export const createInvalidSignatureImageError = createErrorFactory({
  code: 'settings.invalid_signature_image',
  status: 400,
  title: 'Bad Request',
});
