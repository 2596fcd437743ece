import { createErrorFactory } from '../../lib/errors.ts';

/** No recurring gift has this id; `detail` names it. */
export const createPlanNotFoundError = createErrorFactory({
  code: 'plans.not_found',
  status: 404,
  title: 'Not Found',
});

/**
 * The mandate chosen cannot carry the recurring gift: unknown, of another subscriber, revoked or
 * expired, or a one-off mandate (EPC rulebook: sequence OOFF allows one collection only); `errors`
 * name `mandateId`.
 */
export const createPlanMandateUnusableError = createErrorFactory({
  code: 'plans.mandate_unusable',
  status: 409,
  title: 'Conflict',
});

/** No category has this id; `errors` name `categoryId`. */
export const createPlanUnknownCategoryError = createErrorFactory({
  code: 'plans.unknown_category',
  status: 400,
  title: 'Bad Request',
});

/** The end date, given or kept, is before the start date; `errors` name `endOn`. */
export const createPlanEndBeforeStartError = createErrorFactory({
  code: 'plans.end_before_start',
  status: 400,
  title: 'Bad Request',
});

/** The recurring gift has ended: it cannot change any more (a new one is added instead). */
export const createPlanEndedError = createErrorFactory({
  code: 'plans.ended',
  status: 409,
  title: 'Conflict',
});
