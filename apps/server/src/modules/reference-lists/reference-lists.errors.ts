import { createErrorFactory } from '../../lib/errors.ts';

export const createReferenceItemNotFoundError = createErrorFactory({
  code: 'reference_lists.not_found',
  status: 404,
  title: 'Not Found',
});

export const createReferenceNameTakenError = createErrorFactory({
  code: 'reference_lists.name_taken',
  status: 409,
  title: 'Conflict',
});

export const createReferenceIsoCodeTakenError = createErrorFactory({
  code: 'reference_lists.iso_code_taken',
  status: 409,
  title: 'Conflict',
});

export const createReferenceItemInUseError = createErrorFactory({
  code: 'reference_lists.in_use',
  status: 409,
  title: 'Conflict',
});

export const createReferenceIdMismatchError = createErrorFactory({
  code: 'validation.id_mismatch',
  status: 400,
  title: 'Bad Request',
});
