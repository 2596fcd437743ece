import type { DonationListItem } from '@back-office/contract/donations';
import { Anchor, Checkbox, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import {
  type InfiniteList,
  InfiniteTable,
  type InfiniteTableColumn,
} from '../../../components/infinite-table.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDonationAmount } from './donation-format.ts';
import { DonationReceiptMenu } from './donation-receipt-menu.tsx';

/** Part 2 §2.4 messages. */
export const NO_CRITERIA_MESSAGE = 'Please enter some search criteria.';
export const NO_MATCH_MESSAGE = 'No donations match the search criteria.';
export const NO_DONATIONS_YET_MESSAGE = 'No donations from this subscriber yet.';

type DonationsTableProps = {
  list: InfiniteList<DonationListItem>;
  /** Whether one subscriber's donations are shown (changes the empty message, part 2 §4). */
  forSubscriber: boolean;
  selectedIds: ReadonlySet<number>;
  onToggleSelected: (donation: DonationListItem, selected: boolean) => void;
  /** Deletes one donation and says so; resolves true when the server deleted it. */
  onRemove: (donation: DonationListItem) => Promise<boolean>;
};

/**
 * The donations results (part 2 §2.4, §4 Donations list): checkbox, Name (link to the subscriber,
 * followed by "from sale n° …" for the gift of a sale, part 2 §2.6), Post Code, Amount with its
 * currency symbol in French format, Date (y-MM-dd), the receipt number once a receipt was issued, then
 * the two-step Remove and the Receipt dropdown. Infinite, virtualised scrolling through the shared
 * table; its messages: no criteria, no match, no donations yet.
 */
export function DonationsTable({
  list,
  forSubscriber,
  selectedIds,
  onToggleSelected,
  onRemove,
}: DonationsTableProps) {
  const columns: InfiniteTableColumn<DonationListItem>[] = [
    {
      key: 'selected',
      header: <VisuallyHidden>Selected</VisuallyHidden>,
      width: 48,
      render: (donation) => (
        <Checkbox
          aria-label={`Select the donation of ${donation.subscriberName} on ${donation.dateAdded}`}
          checked={selectedIds.has(donation.id)}
          onChange={(event) => onToggleSelected(donation, event.currentTarget.checked)}
        />
      ),
    },
    {
      key: 'name',
      header: 'Name',
      render: (donation) => (
        <>
          <Anchor component={Link} to={paths.subscriber.href(donation.subscriberId)} fw={500}>
            {donation.subscriberName}
          </Anchor>
          {donation.saleRef === undefined ? null : (
            <Text span c="dimmed" size="sm">
              {` · from sale n° ${donation.saleRef}`}
            </Text>
          )}
        </>
      ),
    },
    { key: 'postCode', header: 'Post Code', width: 110, render: (donation) => donation.postCode },
    {
      key: 'amount',
      header: 'Amount',
      width: 150,
      align: 'right',
      render: (donation) => formatDonationAmount(donation.amount, donation.currencySymbol),
    },
    { key: 'date', header: 'Date', width: 120, render: (donation) => donation.dateAdded },
    {
      key: 'receiptNumber',
      header: 'Receipt No.',
      width: 110,
      render: (donation) =>
        donation.receiptNumber === null ? (
          <Text span c="dimmed" size="sm">
            —
          </Text>
        ) : (
          `n° ${donation.receiptNumber}`
        ),
    },
  ];

  return (
    <InfiniteTable
      list={list}
      columns={columns}
      label="Donations"
      rowActions={(donation) => <DonationReceiptMenu donation={donation} />}
      onRemove={onRemove}
      actionsWidth={290}
      idleMessage={NO_CRITERIA_MESSAGE}
      emptyMessage={forSubscriber ? NO_DONATIONS_YET_MESSAGE : NO_MATCH_MESSAGE}
    />
  );
}
