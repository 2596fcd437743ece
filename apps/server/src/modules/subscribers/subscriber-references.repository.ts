import { inArray, sql } from 'drizzle-orm';
import type { PgTableWithColumns } from 'drizzle-orm/pg-core';
import { type Executor, queryRows } from '../../db/client.ts';
import type { FieldError } from '../../lib/errors.ts';
import {
  categories,
  countries,
  currencies,
  paymentMethods,
  subscriptionTypes,
} from '../reference-lists/reference-lists.table.ts';

/** The reference fields of a subscriber, with their list and the word used in messages and history. */
export const SUBSCRIBER_REFERENCES = [
  { field: 'countryId', table: countries, noun: 'country' },
  { field: 'paymentMethodId', table: paymentMethods, noun: 'payment method' },
  { field: 'categoryId', table: categories, noun: 'category' },
  { field: 'subscriptionTypeId', table: subscriptionTypes, noun: 'subscription type' },
  { field: 'currencyId', table: currencies, noun: 'currency' },
] as const;

export type ReferenceField = (typeof SUBSCRIBER_REFERENCES)[number]['field'];
export type ReferenceIds = Record<ReferenceField, number>;

type NamedTable = PgTableWithColumns<{
  name: string;
  schema: undefined;
  dialect: 'pg';
  columns: typeof countries._.columns;
}>;

/**
 * Names of the given reference ids, per field (`{ countryId: Map(1 -> 'France') }`); ids of 0 are skipped.
 * Used to check that every id exists and to write history in words. One statement for every list (a
 * save asked five lists one by one).
 */
export async function loadReferenceNames(db: Executor, idSets: ReadonlyArray<Partial<ReferenceIds>>) {
  const names = new Map<ReferenceField, Map<number, string>>(
    SUBSCRIBER_REFERENCES.map((reference) => [reference.field, new Map()]),
  );
  const lookups = SUBSCRIBER_REFERENCES.flatMap((reference, index) => {
    const ids = [...new Set(idSets.map((set) => set[reference.field] ?? 0).filter((id) => id > 0))];
    const table = reference.table as unknown as NamedTable;
    return ids.length > 0
      ? [
          sql`select ${sql.raw(String(index))} as list, id, name from ${table} where ${inArray(table.id, ids)}`,
        ]
      : [];
  });
  if (lookups.length === 0) return names;
  const rows = await queryRows<{ list: number; id: number; name: string }>(
    db,
    sql.join(lookups, sql` union all `),
  );
  for (const row of rows) {
    const reference = SUBSCRIBER_REFERENCES[Number(row.list)];
    if (reference) names.get(reference.field)?.set(Number(row.id), row.name);
  }
  return names;
}

/** Field errors for ids that name nothing (`countryId: 'This country does not exist.'`). */
export function unknownReferenceErrors(
  ids: ReferenceIds,
  names: Awaited<ReturnType<typeof loadReferenceNames>>,
): FieldError[] {
  return SUBSCRIBER_REFERENCES.filter(
    (reference) => ids[reference.field] > 0 && !names.get(reference.field)?.has(ids[reference.field]),
  ).map((reference) => ({ path: reference.field, message: `This ${reference.noun} does not exist.` }));
}
