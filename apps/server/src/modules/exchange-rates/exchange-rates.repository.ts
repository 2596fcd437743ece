import type {
  ExchangeRate,
  ExchangeRateList,
  ExchangeRateListQuery,
} from '@back-office/contract/exchange-rates';
import { and, asc, count, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { type ExchangeRateSource, exchangeRates } from './exchange-rates.table.ts';

/** A rate to store; `rate` is the decimal text (`"0.9412"`) or a number with at most 6 decimals. */
export type NewExchangeRate = { date: string; currency: string; rate: string | number };

/** Who stored rates, and how. */
export type RateOrigin = { source: ExchangeRateSource; createdBy: string };

/** The wire shape of a rate: its day, its currency, and the `numeric(18,6)` rate as a number. */
const rateColumns = {
  date: exchangeRates.rateDate,
  currency: exchangeRates.currency,
  rate: sql<number>`${exchangeRates.rate}`.mapWith(Number),
};

/** All SQL of the exchange rates (contract `exchange-rates`). */
export function createExchangeRatesRepository() {
  return {
    /** One page of the rates matching `query`, newest day first (then by currency), and how many match. */
    list: async (db: Executor, query: ExchangeRateListQuery): Promise<ExchangeRateList> => {
      const where = and(
        query.currency ? eq(exchangeRates.currency, query.currency) : undefined,
        query.from ? gte(exchangeRates.rateDate, query.from) : undefined,
        query.to ? lte(exchangeRates.rateDate, query.to) : undefined,
      );
      const [total] = await db.select({ n: count() }).from(exchangeRates).where(where);
      const models = await db
        .select(rateColumns)
        .from(exchangeRates)
        .where(where)
        .orderBy(desc(exchangeRates.rateDate), asc(exchangeRates.currency))
        .limit(query.listlength)
        .offset(query.listfrom - 1);
      return { count: total?.n ?? 0, models };
    },

    /** The rate of `currency` on `date`, if one is stored. */
    find: async (db: Executor, currency: string, date: string): Promise<ExchangeRate | undefined> => {
      const [row] = await db
        .select(rateColumns)
        .from(exchangeRates)
        .where(and(eq(exchangeRates.currency, currency), eq(exchangeRates.rateDate, date)));
      return row;
    },

    /**
     * The rate of `currency` on the latest day from `earliest` to `latest` (both included) that has one.
     */
    latestBetween: async (
      db: Executor,
      currency: string,
      earliest: string,
      latest: string,
    ): Promise<ExchangeRate | undefined> => {
      const [row] = await db
        .select(rateColumns)
        .from(exchangeRates)
        .where(
          and(
            eq(exchangeRates.currency, currency),
            gte(exchangeRates.rateDate, earliest),
            lte(exchangeRates.rateDate, latest),
          ),
        )
        .orderBy(desc(exchangeRates.rateDate))
        .limit(1);
      return row;
    },

    /** Stores a rate unless its day and currency have one already; the stored rate, or undefined. */
    insert: async (
      db: Executor,
      rate: NewExchangeRate,
      origin: RateOrigin,
    ): Promise<ExchangeRate | undefined> => {
      const [row] = await db
        .insert(exchangeRates)
        .values({
          currency: rate.currency,
          rateDate: rate.date,
          rate: String(rate.rate),
          source: origin.source,
          createdBy: origin.createdBy,
        })
        .onConflictDoNothing({ target: [exchangeRates.currency, exchangeRates.rateDate] })
        .returning(rateColumns);
      return row;
    },

    /**
     * Stores those of `rates` whose day and currency have none yet, in one statement (one parameter:
     * the rates as JSON, read by `jsonb_to_recordset`, on PGlite and PostgreSQL alike); the others are
     * left as stored. Resolves with how many were stored. The `not exists` keeps the rates already
     * stored from drawing ids for nothing, which `on conflict` alone would.
     */
    insertMany: async (
      db: Executor,
      rates: readonly NewExchangeRate[],
      origin: RateOrigin,
    ): Promise<number> => {
      if (rates.length === 0) return 0;
      const [result] = await queryRows<{ n: number }>(
        db,
        sql`
          with inserted as (
            insert into exchange_rates (currency, rate_date, rate, source, created_by)
            select x.currency, x.date, x.rate, ${origin.source}, ${origin.createdBy}
            from jsonb_to_recordset(${JSON.stringify(rates)}::jsonb) as x(currency text, date date, rate numeric)
            where not exists (
              select 1 from exchange_rates e where e.currency = x.currency and e.rate_date = x.date
            )
            on conflict (currency, rate_date) do nothing
            returning 1
          )
          select count(*)::int as n from inserted`,
      );
      return result?.n ?? 0;
    },
  };
}

export type ExchangeRatesRepository = ReturnType<typeof createExchangeRatesRepository>;
