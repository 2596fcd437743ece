import { saleCountQuerySchema, saleExportQuerySchema } from '@back-office/contract/sales';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import { sendDownload } from '../../http/send-download.ts';
import { CSV_CONTENT_TYPE, csvStream } from '../../lib/csv.ts';
import type { SaleFilter } from './sales.repository.ts';
import type { SalesExportRepository } from './sales-export.repository.ts';

const SALE_COLUMNS = [
  { key: 'ref', header: 'ref' },
  { key: 'date', header: 'date' },
  { key: 'subscriberId', header: 'subscriberId' },
  { key: 'fullName', header: 'name' },
  { key: 'association', header: 'association' },
  { key: 'addr1', header: 'address1' },
  { key: 'addr2', header: 'address2' },
  { key: 'addr3', header: 'address3' },
  { key: 'town', header: 'town' },
  { key: 'postcode', header: 'postcode' },
  { key: 'country', header: 'country' },
  { key: 'email', header: 'email' },
  { key: 'currency', header: 'currency' },
  { key: 'subTotal', header: 'subTotal', decimal: true },
  { key: 'discountPercentage', header: 'discountPercentage', decimal: true },
  { key: 'discountAmount', header: 'discountAmount', decimal: true },
  { key: 'deliveryCharge', header: 'deliveryCharge', decimal: true },
  { key: 'donation', header: 'donation', decimal: true },
  { key: 'total', header: 'total', decimal: true },
  { key: 'orderNumber', header: 'orderNumber' },
  { key: 'addedBy', header: 'addedBy' },
] as const;

const LINE_COLUMNS = [
  { key: 'ref', header: 'ref' },
  { key: 'date', header: 'date' },
  { key: 'fullName', header: 'name' },
  { key: 'postcode', header: 'postcode' },
  { key: 'currency', header: 'currency' },
  { key: 'productId', header: 'productId' },
  { key: 'productName', header: 'product' },
  { key: 'quantity', header: 'quantity' },
  { key: 'unitPrice', header: 'unitPrice', decimal: true },
  { key: 'lineTotal', header: 'lineTotal', decimal: true },
  // The sale's own fields, on each of its lines: the file imports back as sales (docs/decisions/018).
  { key: 'email', header: 'email' },
  { key: 'association', header: 'association' },
  { key: 'addr1', header: 'address1' },
  { key: 'addr2', header: 'address2' },
  { key: 'addr3', header: 'address3' },
  { key: 'town', header: 'town' },
  { key: 'country', header: 'country' },
  { key: 'discountPercentage', header: 'discountPercentage', decimal: true },
  { key: 'deliveryCharge', header: 'deliveryCharge', decimal: true },
  { key: 'donation', header: 'donation', decimal: true },
  { key: 'total', header: 'total', decimal: true },
  { key: 'orderNumber', header: 'orderNumber' },
] as const;

const TOTAL_COLUMNS = [
  { key: 'productName', header: 'product' },
  { key: 'currency', header: 'currency' },
  { key: 'quantity', header: 'quantity' },
  { key: 'amount', header: 'amount', decimal: true },
  { key: 'sales', header: 'sales' },
] as const;

/** Amounts as plain decimals (`12.50`), dates `YYYY-MM-DD`, as spreadsheets read them. */
const decimal = (value: string) => Number(value).toFixed(2);

/**
 * `GET /api/sales/export` (`sales-export.csv`, or `detailed-sales-export.csv` with `isdetailed`) and
 * `GET /api/sales/salecount` (`sales totals (from-to).csv`): streamed, UTF-8 with BOM, formula-safe,
 * whatever the Accept header (part 2 §7). `?dialect=excel-fr` gives `;` and decimal commas, `rfc4180`
 * (default) `,` and decimal points; another dialect is a 400 naming `dialect`. Any signed-in user.
 */
export const salesExportRoutes: FastifyPluginAsyncZod<{
  db: Database;
  repository: SalesExportRepository;
}> = async (app, { db, repository }) => {
  const tags = ['sales: exports'];

  app.get(
    '/api/sales/export',
    {
      config: { access: 'signed-in', export: true },
      schema: {
        tags,
        summary: 'Matching sales as CSV, one row per sale or per line',
        querystring: saleExportQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const query = request.query;
      const filter: SaleFilter = {
        id: query.id,
        name: query.name,
        zip: query.zip,
        addedafter: query.addedafter,
        addedbefore: query.addedbefore,
        greaterThan: query.amountMin,
        lessThan: query.amountMax,
        productid: query.product,
        paymentStatus: query.paymentStatus,
      };
      // On PostgreSQL, COPY writes the CSV (the speed goal: CSV within 3× of COPY); on PGlite the
      // rows come formatted by the repository (date, amounts) and go to csv-stringify as they are.
      // Both give the same bytes (sales-export.routes.test.ts).
      const lineRows = async function* () {
        for await (const { sale, lines } of repository.streamSalesWithLines(db, filter)) {
          for (const line of lines) {
            // Only the columns written: spreading the whole sale and line made this path 4× slower.
            yield {
              ref: sale.ref,
              date: sale.date,
              fullName: sale.fullName,
              postcode: sale.postcode,
              currency: sale.currency,
              productId: line.productId,
              productName: line.productName,
              quantity: line.quantity,
              unitPrice: line.unitPrice,
              lineTotal: line.lineTotal,
              email: sale.email,
              association: sale.association,
              addr1: sale.addr1,
              addr2: sale.addr2,
              addr3: sale.addr3,
              town: sale.town,
              country: sale.country,
              discountPercentage: sale.discountPercentage,
              deliveryCharge: sale.deliveryCharge,
              donation: sale.donation,
              total: sale.total,
              orderNumber: sale.orderNumber,
            };
          }
        }
      };
      const body = query.isdetailed
        ? ((await repository.copySaleLinesCsv(db, filter, LINE_COLUMNS, query.dialect)) ??
          csvStream(lineRows(), LINE_COLUMNS, query.dialect))
        : ((await repository.copySalesCsv(db, filter, SALE_COLUMNS, query.dialect)) ??
          csvStream(repository.streamSales(db, filter), SALE_COLUMNS, query.dialect));
      return sendDownload(reply, {
        filename: query.isdetailed ? 'detailed-sales-export.csv' : 'sales-export.csv',
        contentType: CSV_CONTENT_TYPE,
        body,
      });
    },
  );

  app.get(
    '/api/sales/salecount',
    {
      config: { access: 'signed-in', export: true },
      schema: {
        tags,
        summary: 'Per product: items sold and amount per currency over a period, as CSV',
        querystring: saleCountQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { from, to, dialect } = request.query;
      const rows = (await repository.totalsByProduct(db, from, to)).map((row) => ({
        ...row,
        amount: decimal(row.amount),
      }));
      return sendDownload(reply, {
        filename: `sales totals (${from}-${to}).csv`,
        contentType: CSV_CONTENT_TYPE,
        body: csvStream(rows, TOTAL_COLUMNS, dialect),
      });
    },
  );
};
