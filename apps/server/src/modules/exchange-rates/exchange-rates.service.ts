import { addCalendarDays } from '@back-office/contract/calendar';
import type {
  ExchangeRate,
  ExchangeRateImport,
  ExchangeRateList,
  ExchangeRateListQuery,
  SaveExchangeRateInput,
} from '@back-office/contract/exchange-rates';
import type { Database, Executor } from '../../db/client.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import { readEcbRatesFile } from './ecb-rates-file.ts';
import { createExchangeRateConflictError, createMissingExchangeRateError } from './exchange-rates.errors.ts';
import type { ExchangeRatesRepository } from './exchange-rates.repository.ts';

/**
 * How far back a conversion looks for a rate when its day has none: the ECB publishes none on weekends
 * and TARGET holidays (Easter, 1 May, Christmas), at most 4 days in a row; a week covers them all and
 * is short enough that the rate is still the rate of that time (docs/decisions/021).
 */
export const RATE_LOOKBACK_DAYS = 7;

/** Rates stored per statement of an import: a few thousand keep each statement's JSON small. */
const IMPORT_BATCH_SIZE = 5_000;

/** What a save did: stored the rate (`created`), or found the very same one stored already. */
export type SavedExchangeRate = { created: boolean; rate: ExchangeRate };

/** The rate a conversion uses: `rate` units of the currency for 1 euro, published on `date`. */
export type RateOfDay = { rate: number; date: string };

/**
 * Exchange rates (contract `exchange-rates`, docs/decisions/021): the list, a rate typed in, the
 * import of the ECB's file, and {@link rateFor}, the lookup the conversion of gifts to euros calls.
 * A stored rate is never changed: a receipt may have used it.
 */
export function createExchangeRatesService({
  db,
  repository,
}: {
  db: Database;
  repository: ExchangeRatesRepository;
}) {
  return {
    /** `GET /api/exchange-rates`: one page of rates, newest day first, and how many match. */
    list: (query: ExchangeRateListQuery): Promise<ExchangeRateList> => repository.list(db, query),

    /**
     * `POST /api/exchange-rates`: stores the rate typed in by `user`. The same rate already stored for
     * that day and currency is no error (`created: false`, so that sending again is harmless).
     * @throws 409 `exchange_rates.conflict` when another rate is stored for that day and currency,
     *   naming the day, the currency and the stored rate.
     */
    save: async (input: SaveExchangeRateInput, user: AuthUser): Promise<SavedExchangeRate> => {
      const inserted = await repository.insert(db, input, { source: 'manual', createdBy: user.fullName });
      if (inserted) return { created: true, rate: inserted };
      const stored = await repository.find(db, input.currency, input.date);
      if (!stored) throw new Error('exchange_rates: a rate was neither inserted nor found');
      if (stored.rate === input.rate) return { created: false, rate: stored };
      const message = `The rate of ${stored.currency} on ${stored.date} is already stored: ${stored.rate} ${stored.currency} for 1 euro. A stored rate is not changed, since a receipt may have used it.`;
      throw createExchangeRateConflictError(message, [{ path: 'rate', message }]);
    },

    /**
     * `POST /api/exchange-rates/import`: stores the rates of the ECB's `eurofxref-hist.csv` (read by
     * `readEcbRatesFile`), in batches inside one transaction: all or nothing. `imported` counts the
     * rates newly stored; `skipped` the rates whose day and currency had one stored already, the same
     * or another (the stored one is kept: a receipt may have used it). Cells `N/A` or empty hold no
     * rate and are counted in neither.
     * @throws 400 `exchange_rates.bad_file` naming what is wrong with the file (nothing is stored).
     */
    importEcb: async (bytes: Buffer, user: AuthUser): Promise<ExchangeRateImport> => {
      // Oldest day first (the file is newest first): the indexes then grow at their ends, which is
      // faster than inserting all over them (about 6 s instead of 10 for the whole history on PGlite).
      const rates = readEcbRatesFile(bytes).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      const imported = await db.transaction(async (tx) => {
        let stored = 0;
        for (let start = 0; start < rates.length; start += IMPORT_BATCH_SIZE) {
          stored += await repository.insertMany(tx, rates.slice(start, start + IMPORT_BATCH_SIZE), {
            source: 'ecb',
            createdBy: user.fullName,
          });
        }
        return stored;
      });
      return { imported, skipped: rates.length - imported };
    },

    /**
     * The rate to convert an amount in `currency` (ISO 4217) on `date` (`YYYY-MM-DD`) to euros: the
     * rate of that day, else the last one published in the {@link RATE_LOOKBACK_DAYS} days before it;
     * `date` in the answer is the day of the rate used. EUR is 1 on any day. Runs on `executor`, so
     * that a conversion reads inside the transaction of the receipt it is for.
     * @throws 409 `exchange_rates.missing` naming the day and the currency when there is none.
     */
    rateFor: async (executor: Executor, currency: string, date: string): Promise<RateOfDay> => {
      if (currency === 'EUR') return { rate: 1, date };
      const found = await repository.latestBetween(
        executor,
        currency,
        addCalendarDays(date, -RATE_LOOKBACK_DAYS),
        date,
      );
      if (!found) {
        throw createMissingExchangeRateError(
          `No exchange rate for ${currency} on ${date} or the ${RATE_LOOKBACK_DAYS} days before: add it under Exchange rates.`,
        );
      }
      return { rate: found.rate, date: found.date };
    },
  };
}

export type ExchangeRatesService = ReturnType<typeof createExchangeRatesService>;
