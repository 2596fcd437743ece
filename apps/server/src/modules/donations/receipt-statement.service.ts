import { calendarDay, startOfCalendarDay } from '@back-office/contract/calendar';
import {
  type ReceiptArticle,
  type ReceiptStatement,
  receiptArticleSchema,
} from '@back-office/contract/receipts';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { centsToNumeric, toCents } from '../../lib/money.ts';
import { renderPdf } from '../../lib/pdf/pdf-renderer.ts';
import type { ExchangeRatesService, RateOfDay } from '../exchange-rates/exchange-rates.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { createStatementCurrencyError } from './receipt-statement.errors.ts';
import type { ReceiptStatementRepository, StatementReceipt } from './receipt-statement.repository.ts';
import { receiptStatementDocument } from './receipt-statement-document.ts';

/**
 * The article of the code général des impôts a receipt ticks, which the annual statement of
 * CGI art. 222 bis totals by. Every receipt this application issues is the Cerfa n° 11580 of gifts of
 * individuals, printed with "200 du CGI" ticked and "238 bis" (companies) and "978" (the wealth tax
 * on real estate) left blank (receipt-document.ts): so '200', whatever the receipt. The one place to
 * change when receipts of another article are issued.
 */
export function receiptArticle(_receipt: StatementReceipt): ReceiptArticle {
  return '200';
}

/** A row of the statement's CSV: an article, or `total`; `amount` in euros as "1234.50". */
export type ReceiptStatementRow = {
  year: number;
  type: ReceiptArticle | 'total';
  count: number;
  amount: string;
  currency: 'EUR';
};

/**
 * The organisation's annual statement of the tax receipts it issued (CGI art. 222 bis): each year, the
 * number of receipts issued in the previous calendar year and the total of the gifts they state.
 */
export function createReceiptStatementService({
  db,
  clock,
  repository,
  settingsService,
  exchangeRatesService,
}: {
  db: Database;
  clock: Clock;
  repository: ReceiptStatementRepository;
  settingsService: SettingsService;
  exchangeRatesService: ExchangeRatesService;
}) {
  /**
   * The statement of `year` in `timeZone`: the Cerfa receipts issued from 1 January 00:00 to
   * 31 December 24:00 there and not cancelled, their total summed in euro cents. A receipt in euros
   * counts its total; one in another currency (receipts issued before every Cerfa was made out in
   * euros) its total divided by the rate of its issue day (units of that currency per euro), rounded
   * to the cent. @throws 409 `exchange_rates.missing` naming the day and the currency without a rate;
   * 409 `receipts.statement_currency_unknown` for a currency without an ISO 4217 code
   */
  async function compute(year: number, timeZone: string): Promise<ReceiptStatement> {
    const start = startOfCalendarDay(`${year}-01-01`, timeZone);
    const end = startOfCalendarDay(`${year + 1}-01-01`, timeZone);
    const rates = new Map<string, Promise<RateOfDay>>();
    const rateOf = (currency: string, day: string) => {
      const key = `${currency} ${day}`;
      let rate = rates.get(key);
      if (!rate) {
        rate = exchangeRatesService.rateFor(db, currency, day);
        rates.set(key, rate);
      }
      return rate;
    };
    const euroCents = async (receipt: StatementReceipt) => {
      const cents = toCents(receipt.total);
      if (receipt.currencyIsoCode === 'EUR') return cents;
      if (receipt.currencyIsoCode === null) {
        throw createStatementCurrencyError(
          `Receipt n° ${receipt.number} is made out in ${receipt.currencyName}, a currency without an ISO 4217 code: give it one under Currencies so that its exchange rate can be found.`,
        );
      }
      const { rate } = await rateOf(receipt.currencyIsoCode, calendarDay(receipt.issuedAt, timeZone));
      return Math.round(cents / rate);
    };

    const totals = new Map<ReceiptArticle, { count: number; cents: number }>();
    for await (const receipt of repository.issuedCerfas(db, { start, end })) {
      const article = receiptArticle(receipt);
      const sum = totals.get(article) ?? { count: 0, cents: 0 };
      sum.count += 1;
      sum.cents += await euroCents(receipt);
      totals.set(article, sum);
    }
    const byType = receiptArticleSchema.options.flatMap((type) => {
      const sum = totals.get(type);
      return sum ? [{ type, count: sum.count, amount: sum.cents / 100 }] : [];
    });
    const totalCents = [...totals.values()].reduce((cents, sum) => cents + sum.cents, 0);
    return {
      year,
      receiptCount: byType.reduce((count, row) => count + row.count, 0),
      totalAmount: totalCents / 100,
      currency: 'EUR',
      byType,
    };
  }

  return {
    /**
     * `GET /api/receipts/annual-statement?year=` (CGI art. 222 bis): the Cerfa receipts issued in
     * `year` in the organisation's time zone and not cancelled, how many and the total of the gifts
     * they state, in euros (2 decimals), and the same per article of the tax code.
     * @throws 409 when a receipt in another currency has no rate for its issue day
     */
    statement: async (year: number): Promise<ReceiptStatement> =>
      compute(year, (await settingsService.get()).timeZone),

    /**
     * `GET /api/receipts/annual-statement/pdf?year=` (CGI art. 222 bis): the statement as a one-page
     * PDF, amounts in euros written the French way, dated today in the organisation's time zone, as
     * `receipts-annual-statement-{year}.pdf`. @throws as {@link statement}
     */
    statementPdf: async (year: number): Promise<{ filename: string; pdf: Buffer }> => {
      const settings = await settingsService.get();
      const statement = await compute(year, settings.timeZone);
      return {
        filename: `receipts-annual-statement-${year}.pdf`,
        pdf: await renderPdf(receiptStatementDocument(statement, settings, clock.now())),
      };
    },

    /**
     * The rows of `GET /api/receipts/annual-statement/export?year=` (CGI art. 222 bis): one per article
     * of the tax code, then the `total`; amounts in euros, 2 decimals ("1234.50").
     * @throws as {@link statement}
     */
    statementRows: async (year: number): Promise<ReceiptStatementRow[]> => {
      const statement = await compute(year, (await settingsService.get()).timeZone);
      const row = (type: ReceiptStatementRow['type'], count: number, amount: number) => ({
        year,
        type,
        count,
        amount: centsToNumeric(toCents(amount)),
        currency: 'EUR' as const,
      });
      return [
        ...statement.byType.map((entry) => row(entry.type, entry.count, entry.amount)),
        row('total', statement.receiptCount, statement.totalAmount),
      ];
    },
  };
}

export type ReceiptStatementService = ReturnType<typeof createReceiptStatementService>;
