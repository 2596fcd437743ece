import { startOfCalendarDay } from '@back-office/contract/calendar';
import { SALE_IMPORT_FIELDS } from '@back-office/contract/imports';
import { computeSaleTotalsInCents } from '@back-office/contract/sale-totals';
import { createSaleInputSchema, saleLineInputSchema } from '@back-office/contract/sales';
import { sql } from 'drizzle-orm';
import { anyOf, type Database, type Executor, queryRows, type Transaction } from '../../db/client.ts';
import { centsToNumeric, formatAmount } from '../../lib/money.ts';
import { foldForSearch } from '../../lib/search-text.ts';
import { products } from '../products/products.table.ts';
import { saleLines, sales } from '../sales/sales.table.ts';
import { subscriberHistory } from '../subscribers/subscribers.table.ts';
import { type Donor, type DonorKey, findDonors, fullNameKey, resolveKey } from './donation-import.ts';
import type { CheckedRow, CommittedRow } from './imports.repository.ts';
import {
  addIssues,
  namedFew,
  type ReadCells,
  type RowImportContext,
  type RowImporter,
  readCells,
  type StoredRow,
} from './row-importer.ts';

/** Why a sale's rows are duplicates: the register has a sale of that number. */
export const SAME_SALE_NUMBER = 'same sale number';
/** Most lines a sale has (the sale form's limit). */
const MAX_LINES = 200;
/** Sale numbers are `integer`s. */
const MAX_REF = 2_147_483_647;

/** The sale's own fields, read from its first row and checked by the create payload's schema. */
const saleFieldsSchema = createSaleInputSchema.pick({
  fullName: true,
  association: true,
  discountPercentage: true,
  donation: true,
  deliveryCharge: true,
  addr1: true,
  addr2: true,
  addr3: true,
  town: true,
  postcode: true,
  country: true,
  orderNumber: true,
  notes: true,
});
/** A line's quantity and price, checked by the line payload's schema (the price as its euro price). */
const lineFieldsSchema = saleLineInputSchema.pick({ quantity: true, euroUnitPrice: true });

/** The import field of each schema path that differs from it. */
const FIELD_OF_PATH: Record<string, string> = {
  addr1: 'address1',
  addr2: 'address2',
  addr3: 'address3',
  euroUnitPrice: 'unitPrice',
};
const fieldOf = (path: string) => FIELD_OF_PATH[path] ?? path;

/** A product of the catalogue (deleted ones excluded), prices in units. */
type CatalogueProduct = { id: number; name: string; euroPrice: number; swissPrice: number };

/** The rows of one sale (one row when the file has no sale numbers), read. */
type SaleGroup = { rows: Array<{ stored: StoredRow; read: ReadCells }>; ref: number | undefined };

/** How a row names its product: this catalogue's id, or a name (folded). */
type ProductKey = { by: 'id'; id: number } | { by: 'name'; key: string; name: string };

/** A sale as it will be written: its figures in cents, its lines priced, or the problems per row. */
type PricedSale = {
  group: SaleGroup;
  buyer: Donor | undefined;
  currency: { id: number; symbol: string } | undefined;
  swissSale: boolean;
  date: string | undefined;
  fields: ReturnType<typeof saleFieldsSchema.parse> | undefined;
  lines: Array<{ product: CatalogueProduct | ProductKey; quantity: number; unitPrice: number }>;
  totals: ReturnType<typeof computeSaleTotalsInCents> | undefined;
  /** Errors per row number. */
  errors: Map<number, Array<{ field: string; message: string }>>;
};

/**
 * The sale import's {@link RowImporter} (docs/decisions/018): one row per line item, the rows of one
 * sale following one another under the same sale number (part 2 §3 Sale, §9 totals). An imported sale
 * keeps the file's number (its invoice was issued by the old tool, so it counts as issued: it can be
 * cancelled by a credit note, never deleted); a row without one gets the next number of this register.
 * A number the register already has makes the sale a duplicate. Imported sales do not move the stock:
 * they are history, and the stock is what the catalogue says today.
 */
export function createSaleImporter(context: RowImportContext): RowImporter {
  const { row, lookup, today, timeZone, userName } = context;
  const { mapping, options } = row;
  const refColumn = mapping.ref ?? null;
  /** Sale number → the first row of the file that used it, to refuse a number used by two sales. */
  const firstRowOfRef = new Map<number, number>();
  let catalogue: { byId: Map<number, CatalogueProduct>; byName: Map<string, CatalogueProduct> } | undefined;
  let symbols: Map<number, string> | undefined;

  async function load(db: Executor) {
    if (!catalogue) {
      const rows = await queryRows<CatalogueProduct>(
        db,
        sql`select id, name, euro_price::float8 as "euroPrice", swiss_price::float8 as "swissPrice"
            from products where deleted_at is null order by id`,
      );
      const byName = new Map<string, CatalogueProduct>();
      for (const product of rows) {
        const key = foldForSearch(product.name);
        if (!byName.has(key)) byName.set(key, product);
      }
      catalogue = { byId: new Map(rows.map((product) => [product.id, product])), byName };
    }
    if (!symbols) {
      const rows = await queryRows<{ id: number; symbol: string }>(
        db,
        sql`select id, symbol from currencies`,
      );
      symbols = new Map(rows.map((currency) => [currency.id, currency.symbol]));
    }
    return { catalogue, symbols };
  }

  const refCell = (cells: readonly string[]) => (refColumn === null ? '' : (cells[refColumn] ?? '').trim());

  /** The batch's rows in sales: rows with the same number that follow one another are one sale. */
  function groupRows(batch: StoredRow[]): SaleGroup[] {
    const groups: SaleGroup[] = [];
    let current: SaleGroup | undefined;
    let currentCell = '';
    for (const stored of batch) {
      const read = readCells(SALE_IMPORT_FIELDS, stored.cells, mapping, options);
      const cell = refCell(stored.cells);
      if (current && cell !== '' && cell === currentCell) {
        current.rows.push({ stored, read });
        continue;
      }
      const ref = read.typed.ref;
      current = { rows: [{ stored, read }], ref: typeof ref === 'number' ? ref : undefined };
      currentCell = cell;
      groups.push(current);
    }
    return groups;
  }

  function buyerKey(read: ReadCells): DonorKey | undefined {
    const { values, typed } = read;
    if (typeof typed.subscriberId === 'number') return { by: 'id', id: typed.subscriberId };
    if ((values.email ?? '') !== '') return { by: 'email', email: (values.email ?? '').toLowerCase() };
    const postcode = foldForSearch(values.postcode ?? '');
    if ((values.lastName ?? '') !== '' && postcode !== '') {
      return {
        by: 'name',
        last: foldForSearch(values.lastName ?? ''),
        first: foldForSearch(values.firstName ?? ''),
        postcode,
      };
    }
    if ((values.fullName ?? '') !== '' && postcode !== '') {
      return { by: 'fullName', name: fullNameKey(values.fullName ?? ''), postcode };
    }
    return undefined;
  }

  function productKey(read: ReadCells): ProductKey | undefined {
    if (typeof read.typed.productId === 'number') return { by: 'id', id: read.typed.productId };
    const name = read.values.product ?? '';
    return name === '' ? undefined : { by: 'name', key: foldForSearch(name), name };
  }

  /** Reads, prices and totals each sale of the batch, with its buyer found; nothing is written. */
  async function price(db: Executor, groups: SaleGroup[]): Promise<PricedSale[]> {
    const { catalogue, symbols } = await load(db);
    const keys = groups.map((group) =>
      buyerKey(group.rows[0]?.read ?? { values: {}, typed: {}, errors: [] }),
    );
    const donorsOf = await findDonors(
      db,
      keys.flatMap((key) => (key ? [key] : [])),
    );
    return groups.map((group, index) => {
      const errors = new Map<number, Array<{ field: string; message: string }>>();
      const add = (rowNumber: number, field: string, message: string) => {
        const list = errors.get(rowNumber) ?? [];
        if (!list.some((error) => error.field === field)) list.push({ field, message });
        errors.set(rowNumber, list);
      };
      for (const { stored, read } of group.rows) {
        for (const error of read.errors) add(stored.rowNumber, error.field, error.message);
      }
      const first = group.rows[0] ?? {
        stored: { rowNumber: 0 } as StoredRow,
        read: { values: {}, typed: {}, errors: [] },
      };
      const firstRow = first.stored.rowNumber;
      const typed = first.read.typed;

      if (group.ref !== undefined && (group.ref < 1 || group.ref > MAX_REF)) {
        add(firstRow, 'ref', 'A sale number is a whole number from 1.');
      }
      if (group.rows.length > MAX_LINES) add(firstRow, 'ref', `A sale has at most ${MAX_LINES} lines.`);
      const date = typeof typed.date === 'string' ? typed.date : undefined;
      if (date === undefined && (first.read.values.date ?? '') === '')
        add(firstRow, 'date', 'The date is required.');
      if (date !== undefined && date > today) add(firstRow, 'date', 'The sale date cannot be in the future.');

      const key = keys[index];
      const found = key
        ? resolveKey(key, donorsOf)
        : {
            error: {
              field: 'email',
              message: 'Name the buyer: a subscriber id, an email, or a name and postcode.',
            },
          };
      if (found.error) add(firstRow, found.error.field, found.error.message);
      const buyer = found.donor;

      let currency: PricedSale['currency'];
      if ((first.read.values.currency ?? '') !== '') {
        const id = lookup.currency.get(foldForSearch(first.read.values.currency ?? ''));
        if (id === undefined)
          add(firstRow, 'currency', `No currency is named "${first.read.values.currency}".`);
        else currency = { id, symbol: symbols.get(id) ?? '' };
      } else if (buyer) currency = { id: buyer.currencyId, symbol: buyer.symbol };
      const swissSale = currency?.symbol === 'CHF';

      const fields = saleFieldsSchema.safeParse({
        fullName: typed.fullName ?? '',
        association: typed.association ?? '',
        discountPercentage: typed.discountPercentage ?? 0,
        donation: typed.donation ?? 0,
        deliveryCharge: typed.deliveryCharge ?? 0,
        addr1: typed.address1 ?? '',
        addr2: typed.address2 ?? '',
        addr3: typed.address3 ?? '',
        town: typed.town ?? '',
        postcode: typed.postcode ?? '',
        country: typed.country ?? '',
        orderNumber: typed.orderNumber ?? '',
        notes: typed.notes ?? '',
      });
      if (!fields.success) {
        const list = errors.get(firstRow) ?? [];
        addIssues(list, fields.error.issues, fieldOf);
        errors.set(firstRow, list);
      }

      const lines: PricedSale['lines'] = [];
      for (const { stored, read } of group.rows) {
        const wanted = productKey(read);
        let product: CatalogueProduct | ProductKey | undefined;
        if (!wanted) add(stored.rowNumber, 'product', 'The product is required.');
        else if (wanted.by === 'id') {
          product = catalogue.byId.get(wanted.id);
          if (!product) add(stored.rowNumber, 'productId', `The catalogue has no product ${wanted.id}.`);
        } else {
          product = catalogue.byName.get(wanted.key);
          if (!product) {
            if (options.createMissingReferences) product = wanted;
            else add(stored.rowNumber, 'product', `No product is named "${wanted.name}".`);
          }
        }
        const given = read.typed.unitPrice;
        const unitPrice =
          typeof given === 'number'
            ? given
            : product && 'euroPrice' in product
              ? swissSale
                ? product.swissPrice
                : product.euroPrice
              : undefined;
        if (unitPrice === undefined && product && !('euroPrice' in product)) {
          add(
            stored.rowNumber,
            'unitPrice',
            'Write the unit price: the product is not in the catalogue yet.',
          );
        }
        const line = lineFieldsSchema.safeParse({
          quantity: read.typed.quantity,
          euroUnitPrice: unitPrice ?? 0,
        });
        if (!line.success) {
          const list = errors.get(stored.rowNumber) ?? [];
          addIssues(list, line.error.issues, fieldOf);
          errors.set(stored.rowNumber, list);
        }
        if (product && line.success && unitPrice !== undefined) {
          lines.push({ product, quantity: line.data.quantity, unitPrice: line.data.euroUnitPrice });
        }
      }

      let totals: PricedSale['totals'];
      if (errors.size === 0 && fields.success) {
        totals = computeSaleTotalsInCents({
          lines,
          discountPercentage: fields.data.discountPercentage,
          donation: fields.data.donation,
          deliveryCharge: fields.data.deliveryCharge,
        });
        group.rows.forEach(({ stored, read }, line) => {
          const stated = read.typed.lineTotal;
          const computed = totals?.lineTotals[line] ?? 0;
          if (typeof stated === 'number' && Math.round(stated * 100) !== computed) {
            add(
              stored.rowNumber,
              'lineTotal',
              `The line comes to ${(computed / 100).toFixed(2)} (quantity × unit price), not ${stated.toFixed(2)}.`,
            );
          }
        });
        const stated = typed.total;
        if (typeof stated === 'number' && Math.round(stated * 100) !== totals.total) {
          add(
            firstRow,
            'total',
            `The sale comes to ${(totals.total / 100).toFixed(2)} by its lines, discount, donation and delivery charge, not ${stated.toFixed(2)}.`,
          );
        }
      }
      return {
        group,
        buyer,
        currency,
        swissSale,
        date,
        fields: fields.success ? fields.data : undefined,
        lines,
        totals,
        errors,
      };
    });
  }

  /** Sale numbers of `refs` the register has, with their sale's id. */
  async function existingRefs(db: Executor, refs: number[]) {
    if (refs.length === 0) return new Map<number, number>();
    const rows = await queryRows<{ id: number; ref: number }>(
      db,
      sql`select id, ref from sales where ref = ${anyOf(refs, 'int')}`,
    );
    return new Map(rows.map((sale) => [Number(sale.ref), Number(sale.id)]));
  }

  /** A number used by an earlier sale of the file (its rows not following this one's): an error. */
  function claimRef(sale: PricedSale) {
    const { ref, rows } = sale.group;
    const firstRow = rows[0]?.stored.rowNumber ?? 0;
    if (ref === undefined) return;
    const earlier = firstRowOfRef.get(ref);
    if (earlier === undefined) firstRowOfRef.set(ref, firstRow);
    else if (earlier !== firstRow) {
      const list = sale.errors.get(firstRow) ?? [];
      list.push({
        field: 'ref',
        message: `Row ${earlier} of the file starts another sale n° ${ref}: the lines of one sale follow one another.`,
      });
      sale.errors.set(firstRow, list);
    }
  }

  return {
    groupKey: (cells) => {
      const cell = refCell(cells);
      return cell === '' ? undefined : cell;
    },

    check: async (db, batch) => {
      const priced = await price(db, groupRows(batch));
      for (const sale of priced) claimRef(sale);
      const taken = await existingRefs(
        db,
        priced.flatMap((sale) => (sale.group.ref === undefined ? [] : [sale.group.ref])),
      );
      return priced.flatMap((sale): CheckedRow[] => {
        if (sale.errors.size > 0) {
          const rowsWithErrors = [...sale.errors.keys()];
          return sale.group.rows.map(({ stored }) => ({
            rowNumber: stored.rowNumber,
            status: 'invalid',
            errors: sale.errors.get(stored.rowNumber) ?? [
              { field: '', message: `Another line of this sale has errors (row ${rowsWithErrors[0]}).` },
            ],
            matchId: null,
            matchReasons: [],
          }));
        }
        const match = sale.group.ref === undefined ? undefined : taken.get(sale.group.ref);
        return sale.group.rows.map(({ stored }) =>
          match === undefined
            ? { rowNumber: stored.rowNumber, status: 'valid', errors: [], matchId: null, matchReasons: [] }
            : {
                rowNumber: stored.rowNumber,
                status: 'duplicate',
                errors: [],
                matchId: match,
                matchReasons: [SAME_SALE_NUMBER],
              },
        );
      });
    },

    beforeCommit: async (db: Database) => {
      if (refColumn === null) return;
      // Sales made while the import commits must not take the file's numbers: reserve them all, those
      // of rows skipped too (the old tool issued them; a row fixed and imported later keeps its number).
      await db.execute(sql`
        insert into sale_counter (id, last_ref)
        select 1, coalesce(max((cells->>${refColumn}::int)::int), 0) from import_rows
        where import_id = ${row.id} and cells->>${refColumn}::int ~ '^ *[0-9]{1,9} *$'
        on conflict (id) do update set last_ref = greatest(sale_counter.last_ref, excluded.last_ref)`);
    },

    write: async (tx, batch) => {
      // One sale import writes at a time: its sales without a number wait for one under a stand-in.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('imports.sales'))`);
      const actions = new Map(batch.map(({ stored, action }) => [stored.rowNumber, action]));
      const rows = batch.map(({ stored }) => stored);
      const priced = await price(tx, groupRows(rows));
      const taken = await existingRefs(
        tx,
        priced.flatMap((sale) => (sale.group.ref === undefined ? [] : [sale.group.ref])),
      );
      const refused: Array<{ row: number; field: string; message: string }> = [];
      const toWrite: Array<PricedSale & { ref: number; fileRef: number | undefined }> = [];
      let skipped = 0;
      for (const sale of priced) {
        const firstRow = sale.group.rows[0]?.stored.rowNumber ?? 0;
        // A sale is written when any of its lines says so.
        const action =
          sale.group.rows
            .map(({ stored }) => actions.get(stored.rowNumber) ?? 'skip')
            .find((candidate) => candidate !== 'skip') ?? 'skip';
        if (action === 'skip') {
          skipped += sale.group.rows.length;
          continue;
        }
        if (action === 'merge') {
          refused.push({
            row: firstRow,
            field: '',
            message: 'A sale cannot be merged: create it or skip it.',
          });
          continue;
        }
        if (
          sale.errors.size > 0 ||
          !sale.totals ||
          !sale.buyer ||
          !sale.currency ||
          !sale.fields ||
          !sale.date
        ) {
          for (const [rowNumber, errors] of sale.errors) {
            for (const error of errors) refused.push({ row: rowNumber, ...error });
          }
          continue;
        }
        const fileRef = sale.group.ref;
        // A number the register has since: the sale is created anyway when asked, under a new number.
        const keep = fileRef !== undefined && !taken.has(fileRef);
        toWrite.push({ ...sale, ref: keep ? fileRef : -firstRow, fileRef });
      }
      const created = await createMissingProducts(tx, toWrite);
      const committed: CommittedRow[] = [];
      if (toWrite.length > 0) {
        // PostgreSQL returns the rows of a multi-row INSERT … VALUES in the order of its values.
        const inserted = await tx
          .insert(sales)
          .values(
            toWrite.map((sale) => {
              const totals = sale.totals as NonNullable<PricedSale['totals']>;
              const fields = sale.fields as NonNullable<PricedSale['fields']>;
              const addedOn = startOfCalendarDay(sale.date as string, timeZone);
              return {
                ref: sale.ref,
                subscriberId: (sale.buyer as Donor).id,
                fullName: fields.fullName,
                association: fields.association,
                currencyId: (sale.currency as { id: number }).id,
                swissSale: sale.swissSale,
                discountPercentage: fields.discountPercentage.toFixed(6),
                subTotal: centsToNumeric(totals.subTotal),
                discountAmount: centsToNumeric(totals.discount),
                donation: centsToNumeric(totals.donation),
                deliveryCharge: centsToNumeric(totals.deliveryCharge),
                total: centsToNumeric(totals.total),
                includeThanks: false,
                includePaymentTerms: false,
                paymentTermDays: 30,
                addr1: fields.addr1,
                addr2: fields.addr2,
                addr3: fields.addr3,
                town: fields.town,
                postcode: fields.postcode,
                country: fields.country,
                orderNumber: fields.orderNumber,
                notes: fields.notes,
                addedBy: userName,
                addedOn,
                // Its invoice was issued by the old tool: from now on it is cancelled, never deleted.
                invoiceIssuedAt: addedOn,
              };
            }),
          )
          .returning({ id: sales.id });
        await tx.insert(saleLines).values(
          toWrite.flatMap((sale, index) =>
            sale.lines.map((line, position) => {
              const product =
                'euroPrice' in line.product ? line.product : created.get(productKeyOf(line.product));
              return {
                saleId: inserted[index]?.id ?? 0,
                position: position + 1,
                productId: product?.id ?? 0,
                productName: product?.name ?? '',
                quantity: line.quantity,
                euroUnitPrice: (sale.swissSale ? (product?.euroPrice ?? 0) : line.unitPrice).toFixed(2),
                swissUnitPrice: (sale.swissSale ? line.unitPrice : (product?.swissPrice ?? 0)).toFixed(2),
                unitPrice: line.unitPrice.toFixed(2),
                lineTotal: centsToNumeric(sale.totals?.lineTotals[position] ?? 0),
              };
            }),
          ),
        );
        await tx.insert(subscriberHistory).values(
          toWrite.map((sale) => ({
            subscriberId: (sale.buyer as Donor).id,
            userName,
            description: `Sale${sale.ref > 0 ? ` #${sale.ref}` : ''} of ${formatAmount((sale.totals?.total ?? 0) / 100, sale.currency?.symbol ?? '')} dated ${sale.date} imported from ${row.fileName}${sale.fileRef !== undefined && sale.ref !== sale.fileRef ? ` (n° ${sale.fileRef} there, a number already used here)` : ''}.`,
          })),
        );
        inserted.forEach(({ id }, index) => {
          committed.push({
            rowNumber: toWrite[index]?.group.rows[0]?.stored.rowNumber ?? 0,
            action: 'created',
            recordId: id,
            recordVersion: 0,
            before: null,
          });
        });
      }
      return { committed, refused, skipped };
    },

    finish: async (tx) => {
      // The sales without a number of the file take the next numbers of the register, in file order.
      const [waiting] = await queryRows<{ count: number }>(
        tx,
        sql`select count(*)::int as count from sales where ref < 0`,
      );
      const count = Number(waiting?.count ?? 0);
      if (count === 0) return;
      const [counter] = await queryRows<{ last: number }>(
        tx,
        sql`insert into sale_counter (id, last_ref) values (1, ${count})
            on conflict (id) do update set last_ref = sale_counter.last_ref + ${count}
            returning last_ref as last`,
      );
      const first = Number(counter?.last ?? count) - count + 1;
      await tx.execute(sql`
        update sales s set ref = ${first} - 1 + x.position
        from (select id, row_number() over (order by ref desc) as position from sales where ref < 0) x
        where s.id = x.id`);
    },

    undo: async (tx, written) => {
      const ids = written.flatMap((entry) => (entry.recordId === null ? [] : [entry.recordId]));
      if (ids.length === 0) return undefined;
      const current = await queryRows<{
        id: number;
        ref: number;
        subscriberId: number;
        total: string;
        symbol: string;
        creditNote: number | null;
      }>(
        tx,
        sql`select s.id, s.ref, s.subscriber_id as "subscriberId", s.total, c.symbol, cn.number as "creditNote"
            from sales s join currencies c on c.id = s.currency_id
            left join credit_notes cn on cn.sale_id = s.id
            where s.id = ${anyOf(ids, 'int')} order by s.id for update of s`,
      );
      const cancelled = current.filter((sale) => sale.creditNote !== null);
      if (cancelled.length > 0) {
        return `Credit notes were issued since the import for ${namedFew(
          cancelled.map((sale) => `sale #${sale.ref} (credit note n° ${sale.creditNote})`),
        )}: a cancelled sale stays.`;
      }
      if (current.length === 0) return undefined;
      // The old tool issued their invoices: only this undo may delete them (migration 0033).
      await tx.execute(sql`select set_config('back_office.undoing_import', 'on', true)`);
      await tx.execute(sql`delete from sales where id = ${anyOf(ids, 'int')}`);
      await tx.execute(sql`select set_config('back_office.undoing_import', 'off', true)`);
      await tx.insert(subscriberHistory).values(
        current.map((sale) => ({
          subscriberId: sale.subscriberId,
          userName,
          description: `Sale #${sale.ref} of ${formatAmount(Number(sale.total), sale.symbol)} removed: the import of ${row.fileName} was undone.`,
        })),
      );
      return undefined;
    },
  };

  /**
   * Creates the products the sales name that the catalogue lacks (the import allows it): not for
   * sale until staff set their prices, the price of the sale that named them first on its side.
   */
  async function createMissingProducts(tx: Transaction, toWrite: PricedSale[]) {
    const created = new Map<string, CatalogueProduct>();
    const wanted = new Map<string, { name: string; euroPrice: number; swissPrice: number }>();
    for (const sale of toWrite) {
      for (const line of sale.lines) {
        if ('euroPrice' in line.product || line.product.by !== 'name') continue;
        const key = line.product.key;
        const known = catalogue?.byName.get(key);
        if (known) {
          created.set(key, known);
          continue;
        }
        if (!wanted.has(key)) {
          wanted.set(key, {
            name: line.product.name.slice(0, 200),
            euroPrice: sale.swissSale ? 0 : line.unitPrice,
            swissPrice: sale.swissSale ? line.unitPrice : 0,
          });
        }
      }
    }
    if (wanted.size === 0) return created;
    const entries = [...wanted];
    const rows = await tx
      .insert(products)
      .values(
        entries.map(([, product]) => ({
          name: product.name,
          euroPrice: product.euroPrice.toFixed(2),
          swissPrice: product.swissPrice.toFixed(2),
          active: false,
        })),
      )
      .returning({ id: products.id });
    entries.forEach(([key, product], index) => {
      const made = { id: rows[index]?.id ?? 0, ...product };
      created.set(key, made);
      catalogue?.byName.set(key, made);
      catalogue?.byId.set(made.id, made);
    });
    return created;
  }
}

const productKeyOf = (key: ProductKey) => (key.by === 'name' ? key.key : `#${key.id}`);
