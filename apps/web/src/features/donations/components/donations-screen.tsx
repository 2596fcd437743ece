import type { DonationListItem } from '@back-office/contract/donations';
import { Anchor, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useInfiniteList } from '../../../components/infinite-table.tsx';
import { SearchPanel, SearchPanelToggle } from '../../../components/search-panel.tsx';
import { paths } from '../../../config/paths.ts';
import { rowsText } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { startMeasure, useEndMeasureWhenDrawn } from '../../../lib/perf-marks.ts';
import { useSearchQuery } from '../../../lib/use-search-query.ts';
import { useStoredFilters } from '../../../lib/use-stored-filters.ts';
import { deleteDonations, deleteRefusalReason, useDeleteDonation } from '../api/delete-donation.ts';
import {
  type DonationSearchFilters,
  donationFiltersFromQuery,
  donationSearchFiltersSchema,
  donationSearchQuery,
  donationSearchQueryKey,
  EMPTY_DONATION_FILTERS,
  hasCriteria,
  searchDonations,
} from '../api/search-donations.ts';
import { bulkDeleteReport } from './bulk-delete-report.ts';
import { DonationFormModal } from './donation-form-modal.tsx';
import { donationDeletedMessage } from './donation-format.ts';
import { DonationSearchFields } from './donation-search-fields.tsx';
import { DonationsTable } from './donations-table.tsx';
import { DonationsToolbar } from './donations-toolbar.tsx';

/** Local storage key of the filters of the all-donations search (part 2 §2.1 mechanism, reused). */
export const DONATION_FILTERS_STORAGE_KEY = 'donations.search-filters';

/** The subscriber of the screen's params `subid, fn, ln, sy` (part 2 §2 Routes: donations). */
export type DonationsSubscriber = { id: number; firstName: string; lastName: string; symbol: string };

/**
 * Amounts typed in the search are kept as text, so that stored filters read back with the same types
 * (the stored-filters reader keeps a value only when its type matches the empty one).
 */
function normalise(values: DonationSearchFilters): DonationSearchFilters {
  return { ...values, amountMin: String(values.amountMin), amountMax: String(values.amountMax) };
}

type DonationsScreenProps = {
  /** One subscriber's donations, or null for the search across all donations. */
  subscriber: DonationsSubscriber | null;
};

/**
 * The Donations screen (part 2 §2.4, §4 Donations list, §8, §9). Two modes:
 * - with a subscriber: title "Donations for {name}" linking to the subscriber, the list loads at once,
 *   the search panel keeps only dates, amounts and category, and Add New Donation is offered;
 * - without: title "Donations" and the full search panel (its filters kept in local storage), with
 *   "Please enter some search criteria." until a search with criteria runs.
 * Changing the subscriber is a new screen (the route keys it by id): list cleared, searched again.
 */
export function DonationsScreen({ subscriber }: DonationsScreenProps) {
  const subscriberId = subscriber?.id ?? null;
  const queryClient = useQueryClient();
  const stored = useStoredFilters<DonationSearchFilters>(
    DONATION_FILTERS_STORAGE_KEY,
    EMPTY_DONATION_FILTERS,
  );
  const url = useSearchQuery(donationSearchFiltersSchema);
  // A search in the address (reloaded or shared) comes first; otherwise the stored one (part 2 §2.1).
  const [startFilters] = useState(() => {
    if (url.present && url.query) return donationFiltersFromQuery(url.query);
    return subscriber ? EMPTY_DONATION_FILTERS : stored.filters;
  });
  const form = useForm<DonationSearchFilters>({ initialValues: startFilters });
  const [submitted, setSubmitted] = useState<DonationSearchFilters | null>(() =>
    subscriber || hasCriteria(startFilters) ? startFilters : null,
  );
  const [panelOpened, setPanelOpened] = useState(subscriber === null);
  const [selected, setSelected] = useState<ReadonlyMap<number, DonationListItem>>(new Map());
  const [confirmingBulk, setConfirmingBulk] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [adding, setAdding] = useState(false);
  const deleteDonation = useDeleteDonation();

  const applied = submitted ?? EMPTY_DONATION_FILTERS;
  const list = useInfiniteList<DonationListItem>({
    queryKey: donationSearchQueryKey(applied, subscriberId),
    fetchPage: async (listfrom, listlength, signal) => {
      const page = await searchDonations(applied, subscriberId, listfrom, listlength, signal);
      return { count: page.count, countIsExact: page.countIsExact, rows: page.models };
    },
    enabled: subscriberId !== null || (submitted !== null && hasCriteria(submitted)),
  });
  useEndMeasureWhenDrawn('search-to-rows:donations', list.rows.length > 0);

  useEffect(() => {
    if (list.isError) notifyError('getting the donations');
  }, [list.isError]);

  const runSearch = (values: DonationSearchFilters) => {
    const filters = normalise(values);
    if (!subscriber) stored.save(filters);
    url.setQuery(donationSearchQuery(filters, subscriberId));
    setSelected(new Map());
    setSubmitted(filters);
    // Part 2 §4: a new search clears the results and starts again at position 1, even with the same filters.
    void queryClient.resetQueries({ queryKey: donationSearchQueryKey(filters, subscriberId), exact: true });
  };

  const handleClear = () => {
    form.setValues(EMPTY_DONATION_FILTERS);
    if (subscriber) {
      runSearch(EMPTY_DONATION_FILTERS);
    } else {
      stored.clear();
      url.clearQuery();
      setSelected(new Map());
      setSubmitted(null);
    }
  };

  const handleToggleSelected = (donation: DonationListItem, isSelected: boolean) => {
    setSelected((current) => {
      const next = new Map(current);
      if (isSelected) next.set(donation.id, donation);
      else next.delete(donation.id);
      return next;
    });
  };

  const handleRemove = async (donation: DonationListItem): Promise<boolean> => {
    try {
      await deleteDonation.mutateAsync(donation.id);
    } catch (error) {
      notifyError('deleting a donation', deleteRefusalReason(error));
      return false;
    }
    notifySuccess(donationDeletedMessage(donation));
    handleToggleSelected(donation, false);
    return true;
  };

  const handleDeleteSelected = async () => {
    setConfirmingBulk(false);
    setDeleting(true);
    const outcome = await deleteDonations([...selected.values()]);
    setDeleting(false);
    list.removeRows(outcome.deleted.map((donation) => donation.id));
    setSelected(new Map(outcome.failed.map(({ row }) => [row.id, row])));
    const report = bulkDeleteReport(outcome);
    if (report.kind === 'success') notifySuccess(report.message);
    else notifyError('deleting a donation', report.reason);
  };

  const statusText = list.isLoading
    ? 'Loading...'
    : list.count !== undefined && list.rows.length > 0
      ? rowsText(list.count, list.countIsExact)
      : null;

  return (
    <>
      <Group justify="space-between" align="center" mb="lg" wrap="wrap">
        <Group gap="sm" wrap="nowrap">
          <SearchPanelToggle opened={panelOpened} onToggle={() => setPanelOpened((opened) => !opened)} />
          <Title order={1} size="h2">
            {subscriber ? (
              <>
                Donations for{' '}
                <Anchor component={Link} to={paths.subscriber.href(subscriber.id)} inherit>
                  {`${subscriber.firstName} ${subscriber.lastName}`.trim()}
                </Anchor>
              </>
            ) : (
              'Donations'
            )}
          </Title>
        </Group>
        <Group gap="sm">
          <DonationsToolbar
            exportInput={() => ({
              filters: submitted ?? normalise(form.getValues()),
              subscriberId,
              matches: { count: list.count, countIsExact: list.countIsExact },
            })}
            selectedCount={selected.size}
            deleting={deleting}
            onDeleteSelected={() => setConfirmingBulk(true)}
            onAdd={subscriber ? () => setAdding(true) : undefined}
          />
        </Group>
      </Group>

      <SearchPanel
        opened={panelOpened}
        onSearch={() => {
          startMeasure('search-to-rows:donations');
          runSearch(form.getValues());
        }}
        onClear={handleClear}
        searching={list.isLoading}
        label="Search donations"
      >
        <DonationSearchFields form={form} forSubscriber={subscriber !== null} />
      </SearchPanel>

      <Stack gap="xs">
        {statusText ? (
          <Text size="sm" c="dimmed" role="status">
            {statusText}
          </Text>
        ) : null}
        <DonationsTable
          list={list}
          forSubscriber={subscriber !== null}
          selectedIds={new Set(selected.keys())}
          onToggleSelected={handleToggleSelected}
          onRemove={handleRemove}
        />
      </Stack>

      <Modal
        opened={confirmingBulk}
        onClose={() => setConfirmingBulk(false)}
        title="Delete Selected Donations"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <Stack gap="md">
          <Text>
            {selected.size === 1
              ? 'Delete the selected donation? This cannot be undone.'
              : `Delete the ${selected.size} selected donations? This cannot be undone.`}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmingBulk(false)}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void handleDeleteSelected()}>
              CONFIRM DELETE
            </Button>
          </Group>
        </Stack>
      </Modal>

      {subscriber ? (
        <DonationFormModal
          opened={adding}
          subscriber={{ id: subscriber.id, symbol: subscriber.symbol }}
          onClose={() => setAdding(false)}
        />
      ) : null}
    </>
  );
}
