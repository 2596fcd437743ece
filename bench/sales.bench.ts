/**
 * `npm run bench -- sales` (issue 6 "Speed"): with 300,000 sales of 1–5 lines on PostgreSQL, a sales
 * search answers in under 100 ms at the median (server time): no filter (newest first), by last-name
 * prefix and by product; one invoice PDF renders in under 100 ms.
 */
import { saleSearchQuerySchema } from '@back-office/contract/sales';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import { renderPdf } from '../apps/server/src/lib/pdf/pdf-renderer.ts';
import { invoiceDocument } from '../apps/server/src/modules/sales/invoice-document.ts';
import { createSalesRepository } from '../apps/server/src/modules/sales/sales.repository.ts';
import { createSalesService } from '../apps/server/src/modules/sales/sales.service.ts';
import { createSettingsRepository } from '../apps/server/src/modules/settings/settings.repository.ts';
import { createSettingsService } from '../apps/server/src/modules/settings/settings.service.ts';
import { createSubscribersRepository } from '../apps/server/src/modules/subscribers/subscribers.repository.ts';
import { createSubscribersService } from '../apps/server/src/modules/subscribers/subscribers.service.ts';
import {
  type BenchContext,
  type BenchRow,
  captureStatements,
  ensureBenchSettings,
  measureCalls,
  measureRequests,
  measureStatements,
  RUNS,
  readPdf,
  type Stats,
  SUBSCRIBERS,
  type Suite,
  type SuiteResult,
  seedInChildProcess,
} from './harness.ts';

/** Sales in the benchmark database (issue 6 "Speed"). */
export const SALES = 300_000;
const GOALS = { searchMedianMs: 100, invoiceMedianMs: 100 } as const;

/** A search as the Sales screen sends it: every filter, empty ones as empty strings (part 2 §5, §7). */
function searchParams(filters: Record<string, string>) {
  return {
    id: '-1',
    salesref: '',
    name: '',
    zip: '',
    addedafter: '',
    addedbefore: '',
    greaterThan: '',
    lessThan: '',
    listfrom: '1',
    listlength: '50',
    productid: '',
    ...filters,
  };
}

type SearchFigure = {
  label: string;
  query: string;
  rows: number;
  server: Stats;
  roundTrip: Stats;
  rawSql: Stats;
};

/** The searches: no filter, the most frequent last-name prefix of buyers and the most sold product. */
async function measureSearches(context: BenchContext): Promise<SearchFigure[]> {
  const { db } = context;
  const [prefix] = await queryRows<{ value: string }>(
    db,
    sql`select left(s.search_last_name, 3) as value from sales x join subscribers s on s.id = x.subscriber_id
         group by 1 order by count(*) desc limit 1`,
  );
  const [product] = await queryRows<{ id: number; name: string; sales: number }>(
    db,
    sql`select p.id, p.name, count(distinct l.sale_id)::int as sales from sale_lines l join products p on p.id = l.product_id
         group by p.id, p.name order by 3 desc limit 1`,
  );
  // And the rarest one: the sales that have it are far apart, newest first.
  const [rare] = await queryRows<{ id: number; name: string; sales: number }>(
    db,
    sql`select p.id, p.name, count(distinct l.sale_id)::int as sales from sale_lines l join products p on p.id = l.product_id
         group by p.id, p.name order by 3 asc limit 1`,
  );
  if (!prefix || !product || !rare) throw new Error('the benchmark database has no sales to search');
  const repository = createSalesRepository();
  const figures: SearchFigure[] = [];
  for (const [label, filters] of [
    ['no filter, newest first', {}],
    [`last-name prefix "${prefix.value}"`, { name: prefix.value }],
    [`product "${product.name}" (in ${product.sales} sales)`, { productid: String(product.id) }],
    [`product "${rare.name}" (in ${rare.sales} sales)`, { productid: String(rare.id) }],
  ] as const) {
    const params = searchParams(filters);
    const path = `/api/sales?${new URLSearchParams(params)}`;
    const series = await measureRequests(
      context,
      () => path,
      async (response) => ((await response.json()) as unknown[]).length,
    );
    const statements = await captureStatements(context.pool, (logged) =>
      repository.search(logged, saleSearchQuerySchema.parse(params)),
    );
    figures.push({
      label,
      query: new URLSearchParams(filters).toString(),
      rows: series.last,
      server: series.server,
      roundTrip: series.roundTrip,
      rawSql: await measureStatements(context.pool, statements),
    });
  }
  return figures;
}

/** The invoice of the newest sale with five lines, a discount or delivery when there is one. */
async function measureInvoice(context: BenchContext) {
  const { db } = context;
  const [sale] = await queryRows<{ id: number; ref: number }>(
    db,
    sql`select s.id, s.ref from sales s
         where (select count(*) from sale_lines l where l.sale_id = s.id) = 5
         order by (s.discount_amount > 0 or s.delivery_charge > 0) desc, s.id desc limit 1`,
  );
  if (!sale) throw new Error('the benchmark database has no sale of five lines');
  const series = await measureRequests(context, () => `/api/sales/receipt/${sale.id}`, readPdf);
  const statements = await captureStatements(context.pool, (logged) =>
    createSalesService({
      db: logged,
      repository: createSalesRepository(),
      subscribersService: createSubscribersService({ db: logged, repository: createSubscribersRepository() }),
      settingsService: createSettingsService({ db: logged, repository: createSettingsRepository() }),
    }).invoice(sale.id),
  );
  const found = await createSalesRepository().findSale(db, sale.id);
  if (!found) throw new Error(`sale ${sale.id} vanished`);
  const settings = await createSettingsService({ db, repository: createSettingsRepository() }).get();
  const renderOnly = await measureCalls(() =>
    renderPdf(
      invoiceDocument(
        { sale: found.sale, lines: found.lines, currencySymbol: found.currencySymbol },
        settings,
      ),
    ),
  );
  return {
    saleId: sale.id,
    ref: sale.ref,
    bytes: series.last,
    server: series.server,
    roundTrip: series.roundTrip,
    cpu: series.cpu,
    rawSql: await measureStatements(context.pool, statements),
    renderOnly,
  };
}

/** Seeds the sales, then measures the searches and the invoice. */
async function runSalesBench(context: BenchContext): Promise<SuiteResult> {
  const seeded = await seedInChildProcess(context, { subscribers: SUBSCRIBERS, sales: SALES });
  await context.db.execute(sql`vacuum (analyze) sales, sale_lines, products`);
  await ensureBenchSettings(context);
  const searches = await measureSearches(context);
  const invoice = await measureInvoice(context);
  const rows: BenchRow[] = [
    ...searches.map((figure) => ({
      figure: `Sales search, ${figure.label} (first ${figure.rows} rows): server median`,
      goal: `< ${GOALS.searchMedianMs} ms`,
      measured: `${figure.server.median} ms (p95 ${figure.server.p95}; HTTP round trip ${figure.roundTrip.median} / p95 ${figure.roundTrip.p95}; raw SQL ${figure.rawSql.median} / p95 ${figure.rawSql.p95})`,
      passed: figure.server.median < GOALS.searchMedianMs,
    })),
    {
      figure: `Invoice PDF of sale #${invoice.ref}, 5 lines (${Math.round(invoice.bytes / 1024)} KB): server median`,
      goal: `< ${GOALS.invoiceMedianMs} ms`,
      measured: `${invoice.server.median} ms (p95 ${invoice.server.p95}; HTTP round trip ${invoice.roundTrip.median} / p95 ${invoice.roundTrip.p95}; raw SQL ${invoice.rawSql.median} / p95 ${invoice.rawSql.p95}; PDF rendering alone ${invoice.renderOnly.median} / p95 ${invoice.renderOnly.p95}; CPU per request ${invoice.cpu.median})`,
      passed: invoice.server.median < GOALS.invoiceMedianMs,
    },
  ];
  return {
    rows,
    details: {
      sales: { target: SALES, existedBefore: seeded.sales.existing, added: seeded.sales.added },
      runs: RUNS,
      goals: GOALS,
      searches,
      invoice,
    },
  };
}

/** The sales suite (issue 6 "Speed"). */
export const salesSuite: Suite = { name: 'sales', run: runSalesBench };
