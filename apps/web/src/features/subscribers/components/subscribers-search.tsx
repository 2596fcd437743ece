import type { SubscriberSearchRow } from '@back-office/contract/subscribers';
import { Anchor, Button, Group, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMail, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import {
  InfiniteTable,
  type InfiniteTableColumn,
  useInfiniteList,
} from '../../../components/infinite-table.tsx';
import { SearchPanel, SearchPanelToggle } from '../../../components/search-panel.tsx';
import { paths } from '../../../config/paths.ts';
import { rowsText } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { startMeasure, useEndMeasureWhenDrawn } from '../../../lib/perf-marks.ts';
import { useSearchQuery } from '../../../lib/use-search-query.ts';
import { useStoredFilters } from '../../../lib/use-stored-filters.ts';
import { useDeleteSubscriber } from '../api/delete-subscriber.ts';
import { searchSubscribers, subscriberSearchKey } from '../api/search-subscribers.ts';
import {
  EMPTY_SUBSCRIBER_FILTERS,
  hasSubscriberCriteria,
  normaliseSubscriberFilters,
  SUBSCRIBER_FILTERS_STORAGE_KEY,
  type SubscriberFilters,
  subscriberFiltersFromQuery,
  subscriberSearchFiltersSchema,
  subscriberSearchQuery,
} from '../subscriber-filters.ts';
import { EmailSubscribersModal } from './email-subscribers-modal.tsx';
import { ExportSubscribersMenu } from './export-subscribers-menu.tsx';
import { SubscriberFilterFields } from './subscriber-filter-fields.tsx';

/** §2.1 messages. */
export const NO_SUBSCRIBERS_MATCH_MESSAGE = 'No subscribers match the search criteria.';
export const ENTER_CRITERIA_MESSAGE = 'Please enter some search criteria.';

const columns: InfiniteTableColumn<SubscriberSearchRow>[] = [
  {
    key: 'name',
    header: 'Name',
    width: '30%',
    render: (row) => (
      <Anchor component={Link} to={paths.subscriber.href(row.id)} fw={500}>
        {row.name}
      </Anchor>
    ),
  },
  { key: 'category', header: 'Category', width: '18%', render: (row) => row.category },
  { key: 'street', header: 'Street', width: '30%', render: (row) => row.street },
  { key: 'postCode', header: 'Postcode', width: '12%', render: (row) => row.postCode },
];

/**
 * The subscribers search (part 2 §2.1, §4 Subscriber search and Row delete, §8): heading with
 * "{count} rows", the hamburger that slides the filter panel, the toolbar (Export..., Email
 * Subscribers... once there are results, Add New), the filters (kept in local storage, restored on
 * entry, emptied by Clear), and the infinite table of results with View (new tab), Edit and the
 * two-step Remove.
 */
export function SubscribersSearch() {
  const queryClient = useQueryClient();
  const stored = useStoredFilters<SubscriberFilters>(
    SUBSCRIBER_FILTERS_STORAGE_KEY,
    EMPTY_SUBSCRIBER_FILTERS,
  );
  const url = useSearchQuery(subscriberSearchFiltersSchema);
  // The search in the address wins (a reloaded or shared search); otherwise the stored one (§2.1).
  const active = url.present && url.query ? subscriberFiltersFromQuery(url.query) : stored.filters;
  const [panelOpened, setPanelOpened] = useState(true);
  const [emailOpened, setEmailOpened] = useState(false);
  const form = useForm<SubscriberFilters>({ initialValues: active });
  const deleteSubscriber = useDeleteSubscriber();

  const enabled = hasSubscriberCriteria(active);
  const list = useInfiniteList<SubscriberSearchRow>({
    queryKey: subscriberSearchKey(active),
    fetchPage: (listfrom, listlength, signal) => searchSubscribers(active, listfrom, listlength, signal),
    enabled,
  });
  useEndMeasureWhenDrawn('search-to-rows:subscribers', list.rows.length > 0);

  useEffect(() => {
    if (list.isError) notifyError('getting the items');
  }, [list.isError]);

  const handleSearch = () => {
    startMeasure('search-to-rows:subscribers');
    const filters = normaliseSubscriberFilters(form.values);
    stored.save(filters);
    url.setQuery(subscriberSearchQuery(filters));
    // §4: a new search clears the results and starts again at 1, even with the same filters.
    void queryClient.resetQueries({ queryKey: subscriberSearchKey(filters), exact: true });
  };

  const handleClear = () => {
    stored.clear();
    url.clearQuery();
    form.setValues(EMPTY_SUBSCRIBER_FILTERS);
  };

  const handleRemove = async (row: SubscriberSearchRow): Promise<boolean> => {
    try {
      await deleteSubscriber.mutateAsync(row.id);
    } catch {
      notifyError('deleting a subscriber');
      return false;
    }
    notifySuccess(`Subscriber '${row.name}' was deleted successfully!`);
    return true;
  };

  const count = enabled ? list.count : undefined;

  return (
    <>
      <Group justify="space-between" align="center" mb="lg" wrap="wrap">
        <Group gap="sm" align="center">
          <SearchPanelToggle opened={panelOpened} onToggle={() => setPanelOpened((opened) => !opened)} />
          <Title order={1} size="h2">
            Subscribers
          </Title>
          {count !== undefined ? (
            <Text c="dimmed" aria-live="polite">
              {rowsText(count, list.countIsExact)}
            </Text>
          ) : null}
        </Group>
        <Group gap="sm">
          <ExportSubscribersMenu filters={active} matches={{ count, countIsExact: list.countIsExact }} />
          <Button
            variant="default"
            leftSection={<IconMail size={16} aria-hidden />}
            disabled={!count}
            onClick={() => setEmailOpened(true)}
          >
            Email Subscribers...
          </Button>
          <Button
            component={Link}
            to={paths.subscriber.href('new')}
            leftSection={<IconPlus size={16} aria-hidden />}
          >
            Add New
          </Button>
        </Group>
      </Group>

      <SearchPanel
        opened={panelOpened}
        onSearch={handleSearch}
        onClear={handleClear}
        searching={list.isFetching && !list.isFetchingNextPage}
        label="Subscriber search filters"
      >
        <SubscriberFilterFields form={form} />
      </SearchPanel>

      <InfiniteTable
        list={list}
        columns={columns}
        label="Subscribers"
        idleMessage={ENTER_CRITERIA_MESSAGE}
        emptyMessage={NO_SUBSCRIBERS_MATCH_MESSAGE}
        rowActions={(row) => (
          <>
            <Button
              size="xs"
              variant="subtle"
              component={Link}
              to={paths.subscriber.href(row.id)}
              target="_blank"
              rel="noopener"
              title="Opens in a new tab"
            >
              View
            </Button>
            <Button size="xs" variant="light" component={Link} to={paths.subscriber.href(row.id)}>
              Edit
            </Button>
          </>
        )}
        onRemove={handleRemove}
      />

      <EmailSubscribersModal opened={emailOpened} filters={active} onClose={() => setEmailOpened(false)} />
    </>
  );
}
