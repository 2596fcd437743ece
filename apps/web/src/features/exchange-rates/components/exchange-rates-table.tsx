import type { ExchangeRate } from '@back-office/contract/exchange-rates';
import {
  type InfiniteList,
  InfiniteTable,
  type InfiniteTableColumn,
} from '../../../components/infinite-table.tsx';
import { frenchDay } from '../../../lib/french-date.ts';
import { formatRate } from '../exchange-rate-format.ts';

export const NO_EXCHANGE_RATES_MESSAGE = 'No exchange rates match the search criteria.';

/** Rows are one currency on one day. */
export const exchangeRateRowId = (rate: ExchangeRate) => `${rate.date} ${rate.currency}`;

const columns: InfiniteTableColumn<ExchangeRate>[] = [
  { key: 'date', header: 'Date', width: 120, render: (rate) => frenchDay(rate.date) },
  { key: 'currency', header: 'Currency', width: 100, render: (rate) => rate.currency },
  { key: 'rate', header: 'Rate for 1 €', align: 'right', render: (rate) => formatRate(rate.rate) },
];

/**
 * The rates, newest day first (then by currency), 50 a page with infinite scroll: the day
 * (`dd/mm/yyyy`), the currency, and the rate in units of it for 1 euro, the French way. Narrow enough
 * for a phone without sideways scrolling.
 */
export function ExchangeRatesTable({ list }: { list: InfiniteList<ExchangeRate> }) {
  return (
    <InfiniteTable
      list={list}
      columns={columns}
      label="Exchange rates"
      emptyMessage={NO_EXCHANGE_RATES_MESSAGE}
      minWidth={320}
    />
  );
}
