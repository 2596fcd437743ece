import type { ExchangeRate } from '@back-office/contract/exchange-rates';
import { Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useInfiniteList } from '../../../components/infinite-table.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { SearchPanel, SearchPanelToggle } from '../../../components/search-panel.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { notifyError } from '../../../lib/notify.ts';
import {
  EMPTY_EXCHANGE_RATE_FILTERS,
  type ExchangeRateFilters,
  exchangeRatesSearchQueryKey,
  getExchangeRates,
} from '../api/get-exchange-rates.ts';
import { EcbImportForm } from './ecb-import-form.tsx';
import { ExchangeRateForm } from './exchange-rate-form.tsx';
import { ExchangeRateSearchFields } from './exchange-rate-search-fields.tsx';
import { ExchangeRatesTable, exchangeRateRowId } from './exchange-rates-table.tsx';

/** A search as it was run: its filters and its number (a new Search is a new list from position 1). */
type Search = { filters: ExchangeRateFilters; number: number };

/**
 * The Exchange rates screen (not in the spec; docs/decisions/021), Administrators only: the ECB's euro
 * reference rates that convert gifts in another currency to euros, in units of the currency for 1
 * euro. A rate can be added by hand or the ECB's history imported; below, the rates, newest first,
 * filtered by currency and days.
 */
export function ExchangeRatesScreen() {
  const [filters, setFilters] = useState<ExchangeRateFilters>(EMPTY_EXCHANGE_RATE_FILTERS);
  const [search, setSearch] = useState<Search>({ filters: EMPTY_EXCHANGE_RATE_FILTERS, number: 1 });
  const [panelOpened, setPanelOpened] = useState(true);

  const list = useInfiniteList<ExchangeRate>({
    queryKey: exchangeRatesSearchQueryKey(search.filters, search.number),
    fetchPage: (listfrom, listlength, signal) =>
      getExchangeRates(search.filters, listfrom, listlength, signal),
    getRowId: exchangeRateRowId,
  });

  useEffect(() => {
    if (list.isError) notifyError('getting the exchange rates');
  }, [list.isError]);

  const handleSearch = () => setSearch((current) => ({ filters, number: current.number + 1 }));
  const handleClear = () => {
    setFilters(EMPTY_EXCHANGE_RATE_FILTERS);
    setSearch((current) => ({ filters: EMPTY_EXCHANGE_RATE_FILTERS, number: current.number + 1 }));
  };

  return (
    <>
      <PageHeader title="Exchange rates" />
      <Stack gap="xl">
        <Text size="sm">
          Gifts in another currency are converted to euros at the rate of the day of the gift, or the last one
          published in the 7 days before it. A rate is in units of the currency for 1 euro, as the European
          Central Bank publishes it; a stored rate is not changed.
        </Text>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Paper withBorder radius="md" p="md" component="section" aria-labelledby="add-rate-heading">
            <Title order={2} size="h3" id="add-rate-heading" mb="md">
              Add a rate
            </Title>
            <ExchangeRateForm />
          </Paper>
          <Paper withBorder radius="md" p="md" component="section" aria-labelledby="ecb-import-heading">
            <Title order={2} size="h3" id="ecb-import-heading" mb="md">
              Import from the ECB
            </Title>
            <EcbImportForm />
          </Paper>
        </SimpleGrid>
        <section aria-labelledby="rates-heading">
          <Group justify="space-between" align="center" mb="md" wrap="wrap">
            <Group gap="sm" wrap="nowrap">
              <SearchPanelToggle opened={panelOpened} onToggle={() => setPanelOpened((opened) => !opened)} />
              <Title order={2} size="h3" id="rates-heading">
                Rates
              </Title>
            </Group>
            {list.count !== undefined ? (
              <Text c="dimmed" size="sm" aria-live="polite">
                {list.count === 1 ? '1 rate' : `${formatNumber(list.count)} rates`}
              </Text>
            ) : null}
          </Group>
          <SearchPanel
            opened={panelOpened}
            onSearch={handleSearch}
            onClear={handleClear}
            searching={list.isFetching && !list.isFetchingNextPage}
            label="Search exchange rates"
          >
            <ExchangeRateSearchFields values={filters} onChange={setFilters} />
          </SearchPanel>
          <ExchangeRatesTable list={list} />
        </section>
      </Stack>
    </>
  );
}
