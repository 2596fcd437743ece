import { PRODUCT_IMPORT_FIELDS } from '@back-office/contract/imports';
import { type SaveProductInput, saveProductInputSchema } from '@back-office/contract/products';
import { sql } from 'drizzle-orm';
import { anyOf, type Executor, queryRows, type Transaction } from '../../db/client.ts';
import { foldForSearch } from '../../lib/search-text.ts';
import { products } from '../products/products.table.ts';
import { moveStock } from '../products/stock-movements.repository.ts';
import type { CheckedRow, CommittedRow } from './imports.repository.ts';
import {
  addIssues,
  namedFew,
  type RowImportContext,
  type RowImporter,
  readCells,
  type StoredRow,
  splitSkipped,
} from './row-importer.ts';

/** Why a product row is a duplicate: the catalogue has a product of that name (without case or accents). */
export const SAME_NAME = 'same name';

/** A product of the catalogue as a merge reads and undo restores it; prices in units. */
type CatalogueFields = Omit<SaveProductInput, 'currentStock'> & { currentStock: number };

/** What a merged row keeps for undo: the product before, and its stock right after the import. */
type MergedBefore = CatalogueFields & { stockAfter: number };

type ReadProductRow = {
  values: Record<string, string>;
  input: SaveProductInput | undefined;
  errors: Array<{ field: string; message: string }>;
};

/**
 * Reads one row of a product import into the payload of `POST /api/products` (part 1 §3 Product,
 * validated by the same schema): prices in units (euros, francs), stocks in items; `active` defaults to
 * yes, the stocks to 0.
 */
export function readProductRow(
  cells: readonly string[],
  context: Pick<RowImportContext, 'row'>,
): ReadProductRow {
  const { mapping, options } = context.row;
  const { values, typed, errors } = readCells(PRODUCT_IMPORT_FIELDS, cells, mapping, options);
  const parsed = saveProductInputSchema.safeParse({
    name: typed.name,
    euroPrice: typed.euroPrice,
    swissPrice: typed.swissPrice,
    active: typed.active ?? true,
    currentStock: typed.currentStock ?? 0,
    minStockAlert: typed.minStockAlert ?? 0,
  });
  if (!parsed.success) addIssues(errors, parsed.error.issues);
  return { values, input: errors.length === 0 && parsed.success ? parsed.data : undefined, errors };
}

const catalogueColumns = sql`id, name, euro_price::float8 as "euroPrice", swiss_price::float8 as "swissPrice",
  active, current_stock as "currentStock", min_stock_alert as "minStockAlert", version`;

type CatalogueProduct = CatalogueFields & { id: number; version: number };

/** The catalogue's products (not deleted) by folded name; the first made of two with one name. */
async function loadCatalogue(db: Executor) {
  const rows = await queryRows<CatalogueProduct>(
    db,
    sql`select ${catalogueColumns} from products where deleted_at is null order by id`,
  );
  const byName = new Map<string, CatalogueProduct>();
  for (const product of rows) {
    const key = foldForSearch(product.name);
    if (!byName.has(key)) byName.set(key, product);
  }
  return byName;
}

/** The columns of a product's catalogue fields, as `products` stores them. */
const toColumns = (fields: Omit<SaveProductInput, 'currentStock'>) => ({
  name: fields.name,
  euroPrice: fields.euroPrice.toFixed(2),
  swissPrice: fields.swissPrice.toFixed(2),
  active: fields.active,
  minStockAlert: fields.minStockAlert,
});

/**
 * The product import's {@link RowImporter} (docs/decisions/018). A row names a product of the catalogue
 * when their names fold alike: a duplicate, skipped unless merged (the row's filled-in cells written
 * over it) or created anyway. A product's stock is set by an `import` movement of its ledger, so the
 * ledger still explains every item. Undo deletes the products created and puts the merged ones back,
 * unless one was edited, sold or had its stock moved since.
 */
export function createProductImporter(context: RowImportContext): RowImporter {
  const { row, userName } = context;
  const mover = { id: null, fullName: userName };
  const seen = new Map<string, number>();
  let catalogue: Map<string, CatalogueProduct> | undefined;

  async function check(db: Executor, batch: StoredRow[]): Promise<CheckedRow[]> {
    catalogue ??= await loadCatalogue(db);
    return batch.map((stored) => {
      const read = readProductRow(stored.cells, context);
      if (!read.input) {
        return {
          rowNumber: stored.rowNumber,
          status: 'invalid',
          errors: read.errors,
          matchId: null,
          matchReasons: [],
        };
      }
      const key = foldForSearch(read.input.name);
      const match = catalogue?.get(key);
      const earlier = seen.get(key);
      if (earlier === undefined) seen.set(key, stored.rowNumber);
      if (match) {
        return {
          rowNumber: stored.rowNumber,
          status: 'duplicate',
          errors: [],
          matchId: match.id,
          matchReasons: [SAME_NAME],
        };
      }
      if (earlier !== undefined) {
        return {
          rowNumber: stored.rowNumber,
          status: 'duplicate',
          errors: [{ field: 'name', message: `Same name as row ${earlier} of the file.` }],
          matchId: null,
          matchReasons: ['file'],
        };
      }
      return { rowNumber: stored.rowNumber, status: 'valid', errors: [], matchId: null, matchReasons: [] };
    });
  }

  /** Merges a row into the product it matched: its filled-in cells, and its stock by a movement. */
  async function merge(
    tx: Transaction,
    stored: StoredRow,
    read: ReadProductRow & { input: SaveProductInput },
  ) {
    if (stored.matchId === null) return 'This row matches no product to merge with.';
    const [current] = await queryRows<CatalogueProduct>(
      tx,
      sql`select ${catalogueColumns} from products where id = ${stored.matchId} and deleted_at is null for update`,
    );
    if (!current) return `The product ${stored.matchId} it matches was deleted.`;
    const filled = Object.fromEntries(
      // The name matched the product's: the catalogue keeps its own spelling.
      Object.entries(read.input).filter(([field]) => field !== 'name' && (read.values[field] ?? '') !== ''),
    ) as Partial<SaveProductInput>;
    const { id: _id, version: _version, ...before } = current;
    const after = { ...before, ...filled };
    const [updated] = await tx
      .update(products)
      .set({ ...toColumns(after), version: sql`${products.version} + 1`, updatedAt: sql`now()` })
      .where(sql`${products.id} = ${current.id}`)
      .returning({ version: products.version });
    const difference = after.currentStock - current.currentStock;
    if (difference !== 0) {
      await moveStock(tx, {
        productId: current.id,
        quantity: difference,
        kind: 'import',
        reason: `Imported from ${row.fileName}`,
        user: mover,
      });
    }
    const kept: MergedBefore = { ...before, stockAfter: after.currentStock };
    return {
      rowNumber: stored.rowNumber,
      action: 'merged',
      recordId: current.id,
      recordVersion: updated?.version ?? current.version + 1,
      before: kept,
    } satisfies CommittedRow;
  }

  return {
    check,

    write: async (tx, batch) => {
      const committed: CommittedRow[] = [];
      const refused: Array<{ row: number; field: string; message: string }> = [];
      const creates: Array<{ rowNumber: number; input: SaveProductInput }> = [];
      const { toWrite, skipped } = splitSkipped(batch);
      for (const { stored, action } of toWrite) {
        const read = readProductRow(stored.cells, context);
        if (!read.input) {
          for (const error of read.errors) refused.push({ row: stored.rowNumber, ...error });
          continue;
        }
        if (action === 'create') {
          creates.push({ rowNumber: stored.rowNumber, input: read.input });
          continue;
        }
        const merged = await merge(tx, stored, { ...read, input: read.input });
        if (typeof merged === 'string') refused.push({ row: stored.rowNumber, field: '', message: merged });
        else committed.push(merged);
      }
      if (creates.length > 0) {
        // PostgreSQL returns the rows of a multi-row INSERT … VALUES in the order of its values.
        const created = await tx
          .insert(products)
          .values(creates.map(({ input }) => toColumns(input)))
          .returning({ id: products.id, version: products.version });
        for (const [index, { id, version }] of created.entries()) {
          const stock = creates[index]?.input.currentStock ?? 0;
          if (stock > 0) {
            await moveStock(tx, {
              productId: id,
              quantity: stock,
              kind: 'import',
              reason: `Imported from ${row.fileName}`,
              user: mover,
            });
          }
          committed.push({
            rowNumber: creates[index]?.rowNumber ?? 0,
            action: 'created',
            recordId: id,
            recordVersion: version,
            before: { stockAfter: stock },
          });
        }
      }
      return { committed, refused, skipped };
    },

    undo: async (tx, written) => {
      const ids = written.flatMap((entry) => (entry.recordId === null ? [] : [entry.recordId]));
      if (ids.length === 0) return undefined;
      const current = new Map(
        (
          await queryRows<CatalogueProduct & { deleted: boolean }>(
            tx,
            sql`select ${catalogueColumns}, deleted_at is not null as deleted from products
                where id = ${anyOf(ids, 'int')} order by id for update`,
          )
        ).map((product) => [product.id, product]),
      );
      const sold = new Set(
        (
          await queryRows<{ id: number }>(
            tx,
            sql`select distinct product_id as id from sale_lines where product_id = ${anyOf(ids, 'int')}`,
          )
        ).map((found) => Number(found.id)),
      );
      const changed = written.filter((entry) => {
        const now = entry.recordId === null ? undefined : current.get(entry.recordId);
        const stockAfter = Number((entry.before as { stockAfter?: number } | null)?.stockAfter ?? 0);
        return (
          !now ||
          now.deleted ||
          now.version !== entry.recordVersion ||
          now.currentStock !== stockAfter ||
          (entry.action === 'created' && sold.has(now.id))
        );
      });
      if (changed.length > 0) {
        const named = changed.map((entry) => {
          const now = entry.recordId === null ? undefined : current.get(entry.recordId);
          return now ? `${now.name} (${now.id})` : `product ${entry.recordId} (deleted)`;
        });
        return `These products were changed, sold or had their stock moved since the import: ${namedFew(named)}. Undoing it would lose that work.`;
      }
      const createdIds = written.flatMap((entry) =>
        entry.action === 'created' && entry.recordId !== null ? [entry.recordId] : [],
      );
      if (createdIds.length > 0) {
        await tx.execute(sql`delete from stock_movements where product_id = ${anyOf(createdIds, 'int')}`);
        await tx.execute(sql`delete from products where id = ${anyOf(createdIds, 'int')}`);
      }
      for (const entry of written) {
        if (entry.action !== 'merged' || entry.recordId === null || !entry.before) continue;
        const before = entry.before as MergedBefore;
        await tx
          .update(products)
          .set({ ...toColumns(before), version: sql`${products.version} + 1`, updatedAt: sql`now()` })
          .where(sql`${products.id} = ${entry.recordId}`);
        if (before.currentStock !== before.stockAfter) {
          await moveStock(tx, {
            productId: entry.recordId,
            quantity: before.currentStock - before.stockAfter,
            kind: 'import',
            reason: `The import of ${row.fileName} was undone`,
            user: mover,
          });
        }
      }
      return undefined;
    },
  };
}
