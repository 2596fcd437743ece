import { createErrorFactory } from '../../lib/errors.ts';

/**
 * The organisation's name or SEPA creditor identifier (ICS) is missing from the settings: a mandate
 * without them is not valid, so no letter is made.
 */
export const createMandateSettingsMissingError = createErrorFactory({
  code: 'subscribers.mandate_settings_missing',
  status: 409,
  title: 'Conflict',
});
