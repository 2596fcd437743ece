import { z } from 'zod';
import { hasAtMostTwoDecimals, isIsoDate, MAX_ID } from './common.ts';

/**
 * Recurring gifts by SEPA direct debit, "plans" (not in the spec; docs/decisions/027 and 028), after
 * the EPC's SEPA Core Direct Debit rulebook: a subscriber gives `amount` euros every month, quarter,
 * half year or year, on `dayOfMonth` (1 to 28, a day every month has), from `startOn` to `endOn`
 * (`YYYY-MM-DD`, both included; no `endOn`: until ended), collected under one of their active
 * recurring mandates. Amounts are euros as numbers with at most 2 decimals (`25.5` is 25,50 €).
 */

/** How often a recurring gift is collected: every 1, 3, 6 or 12 months, counted from `startOn`'s month. */
export const PLAN_FREQUENCIES = ['monthly', 'quarterly', 'halfYearly', 'yearly'] as const;
export type PlanFrequency = (typeof PLAN_FREQUENCIES)[number];

/** A recurring gift is collected while `active`; `paused` skips its installments; `ended` is final. */
export const PLAN_STATUSES = ['active', 'paused', 'ended'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/** The largest amount of one installment, in euros. */
export const PLAN_MAX_AMOUNT = 100_000;

/** The last day of the month a plan may be collected on: 28, so that every month has it. */
export const PLAN_LAST_DAY_OF_MONTH = 28;

export const planFrequencySchema = z.enum(PLAN_FREQUENCIES, {
  message: 'The frequency is monthly, quarterly, halfYearly or yearly.',
});

export const planStatusSchema = z.enum(PLAN_STATUSES, { message: 'The status is active, paused or ended.' });

/** Euros of one installment: more than 0, at most {@link PLAN_MAX_AMOUNT}, at most 2 decimals. */
const amountSchema = z
  .number({ message: 'The amount is required.' })
  // At least a cent: 1e-9 has "at most 2 decimals" once rounded, to 0.00.
  .min(0.01, { message: 'The amount must be more than 0.' })
  .max(PLAN_MAX_AMOUNT, { message: 'The amount is at most 100 000 €.' })
  .refine(hasAtMostTwoDecimals, { message: 'The amount can have at most 2 decimals.' });

const DAY_OF_MONTH_MESSAGE = 'The day of the month is a whole number from 1 to 28.';

const dayOfMonthSchema = z
  .number({ message: DAY_OF_MONTH_MESSAGE })
  .int({ message: DAY_OF_MONTH_MESSAGE })
  .min(1, { message: DAY_OF_MONTH_MESSAGE })
  .max(PLAN_LAST_DAY_OF_MONTH, { message: DAY_OF_MONTH_MESSAGE });

/** A day `YYYY-MM-DD` that exists; `required` is the message for a missing one. */
const daySchema = (required: string) =>
  z.string({ message: required }).refine(isIsoDate, { message: 'Dates are written YYYY-MM-DD.' });

const mandateIdSchema = z
  .number({ message: 'Choose the mandate.' })
  .int({ message: 'Choose the mandate.' })
  .positive({ message: 'Choose the mandate.' })
  .max(MAX_ID, { message: 'Choose the mandate.' });

const categoryIdSchema = z
  .number({ message: 'Choose a category.' })
  .int({ message: 'Choose a category.' })
  .positive({ message: 'Choose a category.' })
  .max(MAX_ID, { message: 'Choose a category.' });

const END_MESSAGE = 'The end date cannot be before the start date.';

/**
 * `POST /api/subscribers/{id}/plans` body: `amount` (euros), `frequency`, `dayOfMonth` (1-28),
 * `startOn` and optional `endOn` (`YYYY-MM-DD`, not before `startOn`), `mandateId` (an active
 * recurring mandate of the subscriber: else 409 `plans.mandate_unusable` naming `mandateId`) and
 * optional `categoryId` (of the reference list of categories; the kind of the donations the
 * installments become; an unknown one is a 400 naming `categoryId`). `endOn` and `categoryId` absent
 * or null mean none. Every refusal of the shape is a 400 naming the field.
 */
export const planSchema = z
  .object({
    amount: amountSchema,
    frequency: planFrequencySchema,
    dayOfMonth: dayOfMonthSchema,
    startOn: daySchema('The start date is required.'),
    endOn: daySchema('The end date is written YYYY-MM-DD.')
      .nullish()
      .transform((value) => value ?? null),
    mandateId: mandateIdSchema,
    categoryId: categoryIdSchema.nullish().transform((value) => value ?? null),
  })
  .refine((plan) => plan.endOn === null || plan.endOn >= plan.startOn, {
    message: END_MESSAGE,
    path: ['endOn'],
  });
export type PlanInput = z.input<typeof planSchema>;
export type PlanValues = z.output<typeof planSchema>;

/**
 * `PATCH /api/plans/{id}` body: any field of {@link planSchema}, and `status` (`active`, `paused`,
 * `ended`: pause, resume, end). Fields left out keep their value; `endOn: null` or `categoryId: null`
 * removes it. An end date before the start date (given or kept) is a 400 naming `endOn`; an ended
 * plan cannot change any more (409 `plans.ended`).
 */
export const planChangesSchema = z
  .object({
    amount: amountSchema.optional(),
    frequency: planFrequencySchema.optional(),
    dayOfMonth: dayOfMonthSchema.optional(),
    startOn: daySchema('The start date is required.').optional(),
    endOn: daySchema('The end date is written YYYY-MM-DD.').nullable().optional(),
    mandateId: mandateIdSchema.optional(),
    categoryId: categoryIdSchema.nullable().optional(),
    status: planStatusSchema.optional(),
  })
  .refine((plan) => !plan.endOn || !plan.startOn || plan.endOn >= plan.startOn, {
    message: END_MESSAGE,
    path: ['endOn'],
  });
export type PlanChanges = z.output<typeof planChangesSchema>;

/**
 * A recurring gift as the API returns it: `amount` in euros, `mandateRum` the reference of its
 * mandate, dates `YYYY-MM-DD`; `endOn` and `categoryId` are left out when there is none.
 */
export const planReadSchema = z.object({
  id: z.number().int(),
  subscriberId: z.number().int(),
  mandateId: z.number().int(),
  mandateRum: z.string(),
  amount: z.number(),
  frequency: planFrequencySchema,
  dayOfMonth: z.number().int(),
  startOn: z.string(),
  endOn: z.string().optional(),
  categoryId: z.number().int().optional(),
  status: planStatusSchema,
});
export type Plan = z.infer<typeof planReadSchema>;

/** `GET /api/subscribers/{id}/plans`: the subscriber's recurring gifts, the most recently started first. */
export const planListSchema = z.array(planReadSchema);
