import { describe, expect, it } from 'vitest';
import { createDonationInputSchema } from './donations.ts';
import { planChangesSchema } from './plans.ts';
import { recordPaymentSchema } from './sales.ts';

/** The messages `schema` gives the field `amount` for `amount` (none when it is accepted). */
function amountErrors(
  schema: { safeParse: (value: unknown) => { success: boolean; error?: unknown } },
  body: object,
) {
  const result = schema.safeParse(body) as {
    success: boolean;
    error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
  };
  return (result.error?.issues ?? [])
    .filter((issue) => issue.path[0] === 'amount')
    .map((issue) => issue.message);
}

describe('amounts that must be more than 0', () => {
  const schemas = [
    ['a gift', createDonationInputSchema, { subid: 1, donationDate: '2026-01-15' }],
    ['a recurring gift', planChangesSchema, {}],
    ['a payment of an invoice', recordPaymentSchema, { date: '2026-01-15' }],
  ] as const;

  it.each(schemas)(
    'refuse for %s a positive amount below a cent, which would be stored as 0.00',
    (_, schema, rest) => {
      for (const amount of [5e-324, 1e-9, 0.004]) {
        expect(amountErrors(schema, { ...rest, amount }), String(amount)).toContain(
          'The amount must be more than 0.',
        );
      }
      expect(amountErrors(schema, { ...rest, amount: 0 })).toContain('The amount must be more than 0.');
      expect(amountErrors(schema, { ...rest, amount: 0.01 })).toEqual([]);
      expect(amountErrors(schema, { ...rest, amount: 12.5 })).toEqual([]);
    },
  );
});
