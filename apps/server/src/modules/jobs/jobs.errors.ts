import { createErrorFactory } from '../../lib/errors.ts';

export const createJobNotFoundError = createErrorFactory({
  code: 'jobs.not_found',
  status: 404,
  title: 'Not Found',
});

/** A repeating job (the mail outbox, the purge) or a job already over cannot be cancelled. */
export const createJobNotCancellableError = createErrorFactory({
  code: 'jobs.not_cancellable',
  status: 409,
  title: 'Conflict',
});
