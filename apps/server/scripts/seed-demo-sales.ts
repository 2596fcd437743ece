/**
 * Demo sales for `npm run seed:demo -- --sales N` (the sales speed goal is set on 300,000 sales of 1–5
 * lines). About twenty catalogue products are created once (by name), some selling far more than others;
 * each sale copies the buyer's name and address, and each line the product's name and both unit prices,
 * the way `POST /api/sales` does; every figure comes from the shared {@link computeSaleTotalsInCents}.
 * References continue the `sale_counter` without gaps, in date order, and the products' stock goes down
 * with what was sold (a product sold below zero counts as restocked: it ends with a small positive stock).
 * Rows go in oldest first with multi-row INSERT … SELECT FROM unnest(…), 5,000 sales at a time; on
 * PostgreSQL (`copyTo`) through `COPY`, 50,000 at a time, the secondary indexes built once after a large load.
 */
import { computeSaleTotalsInCents } from '@back-office/contract/sale-totals';
import { count, isNull, sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, type Executor, queryRows } from '../src/db/client.ts';
import { centsToNumeric } from '../src/lib/money.ts';
import { products } from '../src/modules/products/products.table.ts';
import { sales } from '../src/modules/sales/sales.table.ts';
import {
  copyLines,
  csvValue,
  dropSecondaryIndexes,
  REBUILD_INDEXES_FROM,
  withoutRowTriggers,
} from './seed-copy.ts';
import { ascendingOrder, createSeedRandom, DAY_MS, type SeedRandom, utcMidnight } from './seed-random.ts';

/** Sales per transaction (one INSERT for the sales, one for their lines, one stock UPDATE). */
const BATCH_SIZE = 5_000;
/** Sales per `COPY` (PostgreSQL). */
const COPY_BATCH_SIZE = 50_000;
const SPAN_DAYS = 3 * 365;

/** The demo catalogue: name and euro price; the Swiss price is derived (× 1.1, to the next 0.50). */
export const DEMO_PRODUCTS: ReadonlyArray<readonly [string, number]> = [
  ['Revue trimestrielle – numéro courant', 9.5],
  ['Revue trimestrielle – numéro ancien', 6],
  ['Abonnement revue (1 an)', 36],
  ['Hors-série : Les chemins de la mémoire', 14.9],
  ['Livre : Histoire de l’association', 22],
  ['Livre : Voix de Suisse romande', 19.5],
  ['Livre : Carnets de voyage', 17],
  ['Recueil de poèmes', 12],
  ['Calendrier illustré', 11],
  ['Agenda de poche', 8.5],
  ['Cartes postales (lot de 10)', 7.5],
  ['Cartes de vœux (lot de 5)', 9],
  ['Affiche 40 × 60', 15],
  ['Marque-pages (lot de 4)', 3.5],
  ['Sac en toile', 12.5],
  ['Tasse de l’association', 10],
  ['DVD : Conférences 2024', 18],
  ['CD : Chants traditionnels', 16],
  ['Brochure : Guide du bénévole', 4],
  ['Coffret cadeau', 45],
];

const ORDER_NOTES = ['Paiement par chèque', 'À livrer avant Noël', 'Commande passée au salon', 'Cadeau'];

const swissPriceOf = (euros: number) => Math.ceil(euros * 1.1 * 2) / 2;

type Product = { id: number; name: string; euroPrice: number; swissPrice: number };
type Buyer = {
  id: number;
  fullName: string;
  association: string;
  addr1: string;
  addr2: string;
  addr3: string;
  town: string;
  postcode: string;
  country: string;
  swiss: boolean;
  /** The folded last name a sale keeps a copy of (migration 0060). */
  searchLastName: string;
};

/** Creates the demo products that do not exist yet; returns them all. */
async function ensureDemoProducts(db: Database, random: SeedRandom): Promise<Product[]> {
  const existing = await db
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(isNull(products.deletedAt));
  const names = new Set(existing.map((row) => row.name));
  const missing = DEMO_PRODUCTS.filter(([name]) => !names.has(name));
  if (missing.length > 0) {
    await db.insert(products).values(
      missing.map(([name, euros]) => ({
        name,
        euroPrice: euros.toFixed(2),
        swissPrice: swissPriceOf(euros).toFixed(2),
        currentStock: random.int(200, 800),
        minStockAlert: random.pick([5, 10, 20, 50]),
      })),
    );
  }
  const rows = await queryRows<{ id: number; name: string; euro_price: string; swiss_price: string }>(
    db,
    sql`select id, name, euro_price, swiss_price from products
         where deleted_at is null and name in (${sql.join(
           DEMO_PRODUCTS.map(([name]) => sql`${name}`),
           sql`, `,
         )})
         order by id`,
  );
  const byName = new Map<string, Product>();
  for (const row of rows) {
    if (!byName.has(row.name)) {
      byName.set(row.name, {
        id: Number(row.id),
        name: row.name,
        euroPrice: Number(row.euro_price),
        swissPrice: Number(row.swiss_price),
      });
    }
  }
  return [...byName.values()];
}

/** Visible subscribers as buyers, with what a sale copies from them. */
async function loadBuyers(db: Database): Promise<Buyer[]> {
  const rows = await queryRows<{
    id: number;
    title: string;
    first_name: string;
    last_name: string;
    association: string;
    address1: string;
    address2: string;
    address3: string;
    town: string;
    postcode: string;
    country: string | null;
    symbol: string;
    search_last_name: string;
  }>(
    db,
    sql`select s.id, s.title, s.first_name, s.last_name, s.association, s.address1, s.address2, s.address3,
               s.town, s.postcode, c.name as country, cu.symbol, s.search_last_name
          from subscribers s
          left join countries c on c.id = s.country_id
          join currencies cu on cu.id = s.currency_id
         where not s.hidden
         order by s.id`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    fullName: [row.title, row.first_name, row.last_name]
      .map((part) => part.trim())
      .filter(Boolean)
      .join(' '),
    association: row.association,
    addr1: row.address1,
    addr2: row.address2,
    addr3: row.address3,
    town: row.town,
    postcode: row.postcode,
    country: row.country ?? '',
    swiss: row.symbol.toUpperCase() === 'CHF',
    searchLastName: row.search_last_name,
  }));
}

/** One generated sale: the columns of `sales` (but `ref`) and its lines. */
function generateSale(
  random: SeedRandom,
  buyer: Buyer,
  catalogue: ReadonlyArray<readonly [Product, number]>,
  addedOn: Date,
) {
  const swissSale = buyer.swiss ? random.chance(0.92) : random.chance(0.01);
  const lineCount = random.weighted([
    [1, 40],
    [2, 25],
    [3, 17],
    [4, 10],
    [5, 8],
  ] as const);
  const chosen = new Set<Product>();
  while (chosen.size < Math.min(lineCount, catalogue.length)) chosen.add(random.weighted(catalogue));
  const lines = [...chosen].map((product) => {
    // A free line (a gift, a sample) keeps the product but has both prices at 0.
    const free = random.chance(0.03);
    const euroUnitPrice = free ? 0 : product.euroPrice;
    const swissUnitPrice = free ? 0 : product.swissPrice;
    return {
      productId: product.id,
      productName: product.name,
      quantity: random.weighted([
        [1, 70],
        [2, 15],
        [random.int(3, 5), 10],
        [10, 5],
      ] as const),
      euroUnitPrice,
      swissUnitPrice,
      unitPrice: swissSale ? swissUnitPrice : euroUnitPrice,
    };
  });
  const discountPercentage = random.chance(0.15) ? random.pick([5, 10, 15, 20, 33.333333]) : 0;
  const donation = random.chance(0.1) ? random.pick([5, 10, 20, 50]) : 0;
  const deliveryCharge = random.chance(0.4) ? random.pick([3.5, 4.9, 7.5, 12]) : 0;
  const totals = computeSaleTotalsInCents({ lines, discountPercentage, donation, deliveryCharge });
  const includePaymentTerms = random.chance(0.25);
  return {
    row: {
      subscriberId: buyer.id,
      fullName: buyer.fullName,
      association: buyer.association,
      swissSale,
      discountPercentage: discountPercentage.toFixed(6),
      subTotal: centsToNumeric(totals.subTotal),
      discountAmount: centsToNumeric(totals.discount),
      donation: centsToNumeric(totals.donation),
      deliveryCharge: centsToNumeric(totals.deliveryCharge),
      total: centsToNumeric(totals.total),
      includeThanks: random.chance(0.3),
      includePaymentTerms,
      paymentTermDays: includePaymentTerms && random.chance(0.2) ? 60 : 30,
      addr1: buyer.addr1,
      addr2: buyer.addr2,
      addr3: buyer.addr3,
      town: buyer.town,
      postcode: buyer.postcode,
      country: buyer.country,
      orderNumber: random.chance(0.05) ? `BC-${addedOn.getUTCFullYear()}-${random.int(100, 9999)}` : '',
      deliveryAddress: random.chance(0.03)
        ? `${buyer.fullName}\n${random.int(1, 80)} rue de la Gare\n${buyer.postcode} ${buyer.town}`
        : '',
      notes: random.chance(0.05) ? random.pick(ORDER_NOTES) : '',
      addedOn,
      subscriberSearchLastName: buyer.searchLastName,
    },
    lines: lines.map((line, index) => ({
      ...line,
      position: index + 1,
      lineTotal: centsToNumeric(totals.lineTotals[index] ?? 0),
    })),
  };
}

type GeneratedSale = ReturnType<typeof generateSale>;

/** The columns of `sales` a seeded sale fills, in the order of {@link saleValues}. */
const SALE_COLUMNS =
  'ref, subscriber_id, full_name, association, currency_id, swiss_sale, discount_percentage, sub_total, ' +
  'discount_amount, donation, delivery_charge, total, include_thanks, include_payment_terms, ' +
  'payment_term_days, addr1, addr2, addr3, town, postcode, country, order_number, delivery_address, notes, ' +
  'added_by, added_on, subscriber_search_last_name';

/** The columns of `sale_lines`, in the order of {@link lineValues}. */
const LINE_COLUMNS =
  'sale_id, position, product_id, product_name, quantity, euro_unit_price, swiss_unit_price, unit_price, line_total';

type CurrencyIds = { euro: number; swissFranc: number };

/** One sale's values, in the order of {@link SALE_COLUMNS}. */
function saleValues(sale: GeneratedSale['row'], ref: number, currencyIds: CurrencyIds): unknown[] {
  return [
    ref,
    sale.subscriberId,
    sale.fullName,
    sale.association,
    sale.swissSale ? currencyIds.swissFranc : currencyIds.euro,
    sale.swissSale,
    sale.discountPercentage,
    sale.subTotal,
    sale.discountAmount,
    sale.donation,
    sale.deliveryCharge,
    sale.total,
    sale.includeThanks,
    sale.includePaymentTerms,
    sale.paymentTermDays,
    sale.addr1,
    sale.addr2,
    sale.addr3,
    sale.town,
    sale.postcode,
    sale.country,
    sale.orderNumber,
    sale.deliveryAddress,
    sale.notes,
    'Demo data',
    sale.addedOn.toISOString(),
    sale.subscriberSearchLastName,
  ];
}

/** The PostgreSQL type of each of {@link SALE_COLUMNS}, for `unnest`. */
const SALE_TYPES = [
  'int',
  'int',
  'text',
  'text',
  'int',
  'bool',
  'numeric',
  'numeric',
  'numeric',
  'numeric',
  'numeric',
  'numeric',
  'bool',
  'bool',
  'int',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'timestamptz',
  'text',
];

type SaleLine = GeneratedSale['lines'][number] & { saleId: number };

/** One line's values, in the order of {@link LINE_COLUMNS}. */
const lineValues = (line: SaleLine): unknown[] => [
  line.saleId,
  line.position,
  line.productId,
  line.productName,
  line.quantity,
  line.euroUnitPrice.toFixed(2),
  line.swissUnitPrice.toFixed(2),
  line.unitPrice.toFixed(2),
  line.lineTotal,
];
const LINE_TYPES = ['int', 'int', 'int', 'text', 'int', 'numeric', 'numeric', 'numeric', 'numeric'];

/** `insert into <table> (<columns>) select * from unnest($1::type[], …)` of `rows`, column by column. */
function insertByUnnest(table: string, columns: string, types: string[], rows: unknown[][]) {
  const arrays = types.map(
    (type, column) => sql`${sql.param(rows.map((row) => row[column]))}::${sql.raw(type)}[]`,
  );
  return sql`insert into ${sql.raw(table)} (${sql.raw(columns)}) select * from unnest(${sql.join(arrays, sql`, `)})`;
}

/**
 * Inserts `batch` with the references `firstRef`, `firstRef + 1`, … (in order) and takes their items out
 * of stock: through `COPY` on `copyClient` when given (PostgreSQL), else by INSERT … unnest on `db`.
 */
async function insertBatch(
  db: Executor,
  batch: GeneratedSale[],
  firstRef: number,
  currencyIds: CurrencyIds,
  copyClient?: pg.Client,
) {
  const insert = async (table: string, columns: string, types: string[], rows: unknown[][]) => {
    if (copyClient) {
      const lines = rows.map((row) => `${row.map(csvValue).join(',')}\n`);
      await copyLines(copyClient, `copy ${table} (${columns}) from stdin (format csv)`, lines);
    } else {
      await db.execute(insertByUnnest(table, columns, types, rows));
    }
  };
  await insert(
    'sales',
    SALE_COLUMNS,
    SALE_TYPES,
    batch.map((sale, index) => saleValues(sale.row, firstRef + index, currencyIds)),
  );
  const inserted = await queryRows<{ id: number; ref: number }>(
    db,
    sql`select id, ref from sales where ref between ${firstRef} and ${firstRef + batch.length - 1}`,
  );
  const idByRef = new Map(inserted.map((row) => [Number(row.ref), Number(row.id)]));
  const lines: SaleLine[] = batch.flatMap((sale, index) =>
    sale.lines.map((line) => ({ ...line, saleId: idByRef.get(firstRef + index) ?? 0 })),
  );
  await insert('sale_lines', LINE_COLUMNS, LINE_TYPES, lines.map(lineValues));
  const sold = new Map<number, number>();
  for (const line of lines) sold.set(line.productId, (sold.get(line.productId) ?? 0) + line.quantity);
  // Stock out as the server does; below zero means the product was restocked meanwhile.
  await db.execute(sql`
    update products p
       set current_stock = case when p.current_stock >= s.quantity then p.current_stock - s.quantity
                                else p.min_stock_alert + (p.current_stock + 7919 * p.id) % 300 end
      from unnest(${sql.param([...sold.keys()])}::int[], ${sql.param([...sold.values()])}::int[]) as s(id, quantity)
     where p.id = s.id`);
}

/**
 * Adds generated sales until the database holds `target`, creating the demo products first; returns how
 * many sales there were and how many were added. Needs visible subscribers. `log` receives progress lines.
 */
export async function seedDemoSales(
  db: Database,
  {
    target,
    log = () => {},
    now = new Date(),
    copyTo,
  }: { target: number; log?: (line: string) => void; now?: Date; copyTo?: { databaseUrl: string } },
) {
  const [existingRow] = await db.select({ n: count() }).from(sales);
  const existing = Number(existingRow?.n ?? 0);
  const missing = Math.max(0, target - existing);
  log(`${existing} sales exist; adding ${missing} to reach ${target}.`);
  if (missing === 0) return { existing, added: 0 };

  const random = createSeedRandom(existing + 7_000_003);
  // Some products sell much more than others: the n-th of the catalogue in proportion to 1/n.
  const catalogue = (await ensureDemoProducts(db, random)).map(
    (product, index) => [product, 1 / (index + 1)] as const,
  );
  const everyone = await loadBuyers(db);
  if (everyone.length === 0)
    throw new Error('There is no subscriber to sell to: add subscribers first (--subscribers N).');
  // About four in ten subscribers buy; a few of them often.
  const buyers = everyone.filter(() => random.chance(0.4));
  const currencies = await queryRows<{ id: number; symbol: string }>(
    db,
    sql`select id, symbol from currencies`,
  );
  const currencyId = (symbol: string) =>
    Number(currencies.find((row) => row.symbol.toLowerCase() === symbol.toLowerCase())?.id ?? 0);
  const currencyIds = { euro: currencyId('€'), swissFranc: currencyId('CHF') };
  if (!currencyIds.euro || !currencyIds.swissFranc) throw new Error('The € and CHF currencies are missing.');

  // Dates first, ascending, so that references follow the dates.
  const today = utcMidnight(now);
  const times = new Int32Array(missing);
  for (let index = 0; index < missing; index += 1) {
    const day = today / DAY_MS - random.int(0, SPAN_DAYS - 1);
    times[index] = (day * 86_400 + random.int(8 * 3600, 19 * 3600)) / 60; // minutes since 1970
  }
  const order = ascendingOrder(times);

  const started = Date.now();
  const client = copyTo ? new pg.Client({ connectionString: copyTo.databaseUrl }) : undefined;
  await client?.connect();
  if (client) await withoutRowTriggers(client);
  const rebuild =
    client && missing >= REBUILD_INDEXES_FROM
      ? await dropSecondaryIndexes(client, ['sales', 'sale_lines'])
      : [];
  let added = 0;
  try {
    while (added < missing) {
      const size = Math.min(client ? COPY_BATCH_SIZE : BATCH_SIZE, missing - added);
      const batch: GeneratedSale[] = [];
      for (let index = added; index < added + size; index += 1) {
        const minutes = times[order[index] ?? 0] ?? 0;
        const buyer = buyers[Math.floor(buyers.length * random.next() ** 1.3)] ?? everyone[0];
        if (!buyer) break;
        batch.push(
          generateSale(random, buyer, catalogue, new Date(Math.min(now.getTime(), minutes * 60_000))),
        );
      }
      const addBatch = async (tx: Executor) => {
        const [counter] = await queryRows<{ last_ref: number }>(
          tx,
          sql`insert into sale_counter (id, last_ref) values (1, ${size})
              on conflict (id) do update set last_ref = sale_counter.last_ref + ${size}
              returning last_ref`,
        );
        const lastRef = Number(counter?.last_ref ?? size);
        await insertBatch(tx, batch, lastRef - size + 1, currencyIds, client);
      };
      // COPY runs on a connection of its own: a batch is then not one transaction, as for donations.
      if (client) await addBatch(db);
      else await db.transaction(addBatch);
      added += size;
      if (added % 50_000 === 0 || added === missing) {
        log(`  ${added} / ${missing} sales added (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }
    }
  } finally {
    for (const definition of rebuild) await client?.query(definition);
    await client?.end();
  }
  await db.execute(sql`analyze sales, sale_lines, products`);
  return { existing, added };
}
