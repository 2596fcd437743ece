import { createErrorFactory } from '../../lib/errors.ts';

/** No bulk email has this id. */
export const createMailSendNotFoundError = createErrorFactory({
  code: 'mail.send_not_found',
  status: 404,
  title: 'Not Found',
});

/** Only the sender of a bulk email and the Administrators may retry it. */
export const createMailSendForbiddenError = createErrorFactory({
  code: 'mail.send_forbidden',
  status: 403,
  title: 'Forbidden',
});
