import type { ReferenceItem, ReferenceItemInput } from '@back-office/contract/reference-lists';
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import type { ReferenceListDefinition } from './reference-lists.definitions.ts';

type Row = {
  id: number;
  name: string;
  order?: number;
  symbol?: string;
  direct_debit?: boolean;
  iso_code?: string | null;
};

const COLUMN_OF = {
  order: 'order',
  symbol: 'symbol',
  directDebit: 'direct_debit',
  isoCode: 'iso_code',
} as const;

const rows = <T = Row>(db: Executor, query: SQL) => queryRows<T>(db, query);

function toItem(definition: ReferenceListDefinition, row: Row): ReferenceItem {
  const item: ReferenceItem = { id: Number(row.id), name: row.name };
  for (const field of definition.extraFields) {
    if (field === 'order') item.order = Number(row.order);
    if (field === 'symbol') item.symbol = row.symbol ?? '';
    if (field === 'directDebit') item.directDebit = Boolean(row.direct_debit);
    if (field === 'isoCode') item.isoCode = row.iso_code ?? null;
  }
  return item;
}

/**
 * SQL for any reference list, driven by its definition (one generic module serves all six).
 * Table and column names come from {@link ReferenceListDefinition}, never from input.
 */
export function createReferenceListsRepository() {
  const selectColumns = (definition: ReferenceListDefinition) =>
    sql.join(
      [sql`id`, sql`name`, ...definition.extraFields.map((field) => sql.identifier(COLUMN_OF[field]))],
      sql`, `,
    );
  const returning = (definition: ReferenceListDefinition) => sql` returning ${selectColumns(definition)}`;
  const orderBy = (definition: ReferenceListDefinition) =>
    definition.orderBy === 'name'
      ? sql`fold_text(name), id`
      : definition.orderBy === 'order'
        ? sql`"order", fold_text(name), id`
        : sql`id`;

  return {
    list: async (db: Executor, definition: ReferenceListDefinition) =>
      (
        await rows(
          db,
          sql`select ${selectColumns(definition)} from ${definition.table} order by ${orderBy(definition)}`,
        )
      ).map((row) => toItem(definition, row)),

    findById: async (db: Executor, definition: ReferenceListDefinition, id: number) => {
      const [row] = await rows(
        db,
        sql`select ${selectColumns(definition)} from ${definition.table} where id = ${id}`,
      );
      return row ? toItem(definition, row) : undefined;
    },

    /** True when another item of the list (not `exceptId`) has this name, case-insensitive. */
    isNameTaken: async (
      db: Executor,
      definition: ReferenceListDefinition,
      name: string,
      exceptId?: number,
    ) => {
      const [row] = await rows(
        db,
        sql`select id, name from ${definition.table}
             where lower(name) = lower(${name}) and id <> ${exceptId ?? 0} limit 1`,
      );
      return row !== undefined;
    },

    /**
     * The name of another item of the list (not `exceptId`) that has this ISO code, or undefined.
     * Only for lists whose definition has `isoCode`.
     */
    holderOfIsoCode: async (
      db: Executor,
      definition: ReferenceListDefinition,
      isoCode: string,
      exceptId?: number,
    ) => {
      const [row] = await rows(
        db,
        sql`select id, name from ${definition.table}
             where iso_code = ${isoCode} and id <> ${exceptId ?? 0} limit 1`,
      );
      return row?.name;
    },

    insert: async (
      db: Executor,
      definition: ReferenceListDefinition,
      input: Required<ReferenceItemInput>,
    ) => {
      const columns = [sql`name`, ...definition.extraFields.map((field) => sql.identifier(COLUMN_OF[field]))];
      const values = [sql`${input.name}`, ...definition.extraFields.map((field) => sql`${input[field]}`)];
      const [row] = await rows(
        db,
        sql`insert into ${definition.table} (${sql.join(columns, sql`, `)})
            values (${sql.join(values, sql`, `)})${returning(definition)}`,
      );
      if (!row) throw new Error(`insert into ${definition.plural} returned no row`);
      return toItem(definition, row);
    },

    update: async (
      db: Executor,
      definition: ReferenceListDefinition,
      id: number,
      input: Required<ReferenceItemInput>,
    ) => {
      const assignments = [
        sql`name = ${input.name}`,
        ...definition.extraFields.map((field) => sql`${sql.identifier(COLUMN_OF[field])} = ${input[field]}`),
      ];
      const [row] = await rows(
        db,
        sql`update ${definition.table} set ${sql.join(assignments, sql`, `)}
             where id = ${id}${returning(definition)}`,
      );
      return row ? toItem(definition, row) : undefined;
    },

    delete: async (db: Executor, definition: ReferenceListDefinition, id: number) => {
      const deleted = await rows(
        db,
        sql`delete from ${definition.table} where id = ${id} returning id, name`,
      );
      return deleted.length > 0;
    },

    /** How many records use the item, per kind of record (`[{ noun: 'subscriber', count: 3 }]`). */
    countUsages: async (db: Executor, definition: ReferenceListDefinition, id: number) => {
      const counts: Array<{ noun: string; count: number }> = [];
      for (const usage of definition.usages) {
        const [row] = await rows<{ n: number }>(
          db,
          sql`select count(*)::int as n from ${usage.column.table} where ${usage.column} = ${id}`,
        );
        counts.push({ noun: usage.noun, count: Number(row?.n ?? 0) });
      }
      return counts.filter((entry) => entry.count > 0);
    },
  };
}

export type ReferenceListsRepository = ReturnType<typeof createReferenceListsRepository>;
