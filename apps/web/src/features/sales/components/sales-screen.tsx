import type { SaleSummary } from '@back-office/contract/sales';
import { Anchor, Button, Group, Title } from '@mantine/core';
import { IconMail, IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useInfiniteList } from '../../../components/infinite-table.tsx';
import { SearchPanel, SearchPanelToggle } from '../../../components/search-panel.tsx';
import { paths } from '../../../config/paths.ts';
import { useProducts } from '../../../entities/products/index.ts';
import { exportRefusedReason } from '../../../lib/api-error.ts';
import { useCsvDialect } from '../../../lib/csv-dialect.ts';
import { notifyError } from '../../../lib/notify.ts';
import { startMeasure, useEndMeasureWhenDrawn } from '../../../lib/perf-marks.ts';
import { useSearchQuery } from '../../../lib/use-search-query.ts';
import { useStoredFilters } from '../../../lib/use-stored-filters.ts';
import { useExportSales } from '../api/export-sales.ts';
import { salesSearchQueryKey, searchSales } from '../api/search-sales.ts';
import {
  EMPTY_SALES_FILTERS,
  filtersForMode,
  filtersFromStore,
  filtersToStore,
  hasSalesCriteria,
  SALES_FILTERS_STORAGE_KEY,
  type SalesFilters,
  salesEmailFilters,
  salesFiltersFromQuery,
  salesSearchFiltersSchema,
  salesSearchQuery,
} from '../sales-filters.ts';
import { SalesEmailModal } from './sales-email-modal.tsx';
import { SalesExportMenu } from './sales-export-menu.tsx';
import { NO_MATCH_MESSAGE, NO_SALES_YET_MESSAGE, SalesList } from './sales-list.tsx';
import { SalesSearchFields } from './sales-search-fields.tsx';
import { SalesTotalsExportModal } from './sales-totals-export-modal.tsx';

/** The subscriber of a "Sales for" list (route params subid, fn, ln, sy; part 2 §2). */
export type SalesSubscriber = { id: number; firstName: string; lastName: string; currencySymbol: string };

/** A search as it was run: its filters and its number (a new Search is a new list from position 1). */
type Search = { filters: SalesFilters; number: number };

type SalesScreenProps = {
  /** The subscriber whose sales are listed, or null for the search of all sales. */
  subscriber: SalesSubscriber | null;
};

/**
 * The Sales list (part 2 §2.5, §4 Sales list, §7, §8) in its two modes.
 * - Without a subscriber: "Sales"; the panel has every field; the filters are kept in local storage and
 *   a stored search runs again when the screen opens; nothing is searched without a criterion ("Please
 *   enter some search criteria."); Export Sales Totals and Email Subscribers... are offered.
 * - With a subscriber: "Sales for {fn} {ln}" linking to the subscriber; the list loads at once; Add New
 *   Sale leads to the New Sale screen.
 * The search panel starts open and slides with the hamburger; Enter in a field searches.
 */
export function SalesScreen({ subscriber }: SalesScreenProps) {
  const subscriberId = subscriber?.id ?? null;
  const stored = useStoredFilters(SALES_FILTERS_STORAGE_KEY, EMPTY_SALES_FILTERS);
  const url = useSearchQuery(salesSearchFiltersSchema);
  // A search in the address (reloaded or shared) comes first; otherwise the stored one (part 2 §2.1).
  const [initialFilters] = useState(() => {
    if (url.present && url.query) return salesFiltersFromQuery(url.query);
    return subscriber ? EMPTY_SALES_FILTERS : filtersFromStore(stored.filters);
  });
  const [filters, setFilters] = useState<SalesFilters>(initialFilters);
  const [search, setSearch] = useState<Search | null>(() =>
    subscriber || hasSalesCriteria(initialFilters) ? { filters: initialFilters, number: 1 } : null,
  );
  const [panelOpened, setPanelOpened] = useState(true);
  const [emailOpened, setEmailOpened] = useState(false);
  const [totalsOpened, setTotalsOpened] = useState(false);
  const products = useProducts();
  const exportSales = useExportSales();
  const [dialect] = useCsvDialect();

  const list = useInfiniteList<SaleSummary>({
    queryKey: salesSearchQueryKey(subscriberId, search?.filters ?? EMPTY_SALES_FILTERS, search?.number ?? 0),
    fetchPage: (listfrom, listlength, signal) =>
      searchSales(search?.filters ?? EMPTY_SALES_FILTERS, subscriberId, listfrom, listlength, signal),
    enabled: search !== null,
  });
  useEndMeasureWhenDrawn('search-to-rows:sales', list.rows.length > 0);

  useEffect(() => {
    if (list.isError) notifyError('getting the items');
  }, [list.isError]);
  useEffect(() => {
    if (products.isError) notifyError('getting the products');
  }, [products.isError]);

  const handleSearch = () => {
    startMeasure('search-to-rows:sales');
    const used = filtersForMode(filters, subscriberId);
    if (!subscriber) stored.save(filtersToStore(used));
    url.setQuery(salesSearchQuery(used, subscriberId));
    if (!subscriber && !hasSalesCriteria(used)) {
      setSearch(null);
      return;
    }
    setSearch((current) => ({ filters: used, number: (current?.number ?? 0) + 1 }));
  };

  const handleClear = () => {
    if (!subscriber) stored.clear();
    url.clearQuery();
    setFilters(EMPTY_SALES_FILTERS);
    setSearch(subscriber ? { filters: EMPTY_SALES_FILTERS, number: (search?.number ?? 0) + 1 } : null);
  };

  const handleExport = (detailed: boolean) => {
    exportSales.mutate(
      { filters, subscriberId, detailed, dialect },
      { onError: (error) => notifyError('getting the exported sales', exportRefusedReason(error)) },
    );
  };

  const emptyMessage =
    subscriber && !hasSalesCriteria(search?.filters ?? EMPTY_SALES_FILTERS, false)
      ? NO_SALES_YET_MESSAGE
      : NO_MATCH_MESSAGE;
  const subscriberName = subscriber ? `${subscriber.firstName} ${subscriber.lastName}`.trim() : '';

  return (
    <>
      <Group justify="space-between" align="center" mb="lg" wrap="wrap">
        <Group gap="sm" wrap="nowrap">
          <SearchPanelToggle opened={panelOpened} onToggle={() => setPanelOpened((opened) => !opened)} />
          <Title order={1} size="h2">
            {subscriber ? (
              <>
                Sales for{' '}
                <Anchor component={Link} to={paths.subscriber.href(subscriber.id)} inherit>
                  {subscriberName}
                </Anchor>
              </>
            ) : (
              'Sales'
            )}
          </Title>
        </Group>
        <Group gap="sm">
          <SalesExportMenu
            withTotals={!subscriber}
            busy={exportSales.isPending}
            onExportTotals={() => setTotalsOpened(true)}
            onExport={handleExport}
          />
          {subscriber ? (
            <Button
              component={Link}
              to={paths.newSale.href(subscriber.id)}
              leftSection={<IconPlus size={16} aria-hidden />}
            >
              Add New Sale
            </Button>
          ) : (
            <Button
              variant="default"
              leftSection={<IconMail size={16} aria-hidden />}
              disabled={list.rows.length === 0}
              onClick={() => setEmailOpened(true)}
            >
              Email Subscribers...
            </Button>
          )}
        </Group>
      </Group>

      <SearchPanel
        opened={panelOpened}
        onSearch={handleSearch}
        onClear={handleClear}
        searching={(list.isFetching && !list.isFetchingNextPage) || exportSales.isPending}
        label="Search sales"
      >
        <SalesSearchFields
          values={filters}
          onChange={setFilters}
          withSubscriberFields={!subscriber}
          products={products.data ?? []}
        />
      </SearchPanel>

      <SalesList list={list} emptyMessage={emptyMessage} />

      {subscriber ? null : (
        <>
          <SalesEmailModal
            opened={emailOpened}
            filters={salesEmailFilters(search?.filters ?? EMPTY_SALES_FILTERS, subscriberId)}
            onClose={() => setEmailOpened(false)}
          />
          <SalesTotalsExportModal opened={totalsOpened} onClose={() => setTotalsOpened(false)} />
        </>
      )}
    </>
  );
}
