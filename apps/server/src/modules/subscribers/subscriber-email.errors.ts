import { createErrorFactory } from '../../lib/errors.ts';

/** The subscriber has no email address to send to (part 2 §7 brochure email). */
export const createSubscriberHasNoEmailError = createErrorFactory({
  code: 'subscribers.no_email',
  status: 400,
  title: 'Bad Request',
});
