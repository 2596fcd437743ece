import type { RegisteredReceipt } from '@back-office/contract/receipts';
import { Anchor, Badge, Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import {
  type InfiniteList,
  InfiniteTable,
  type InfiniteTableColumn,
} from '../../../components/infinite-table.tsx';
import { paths } from '../../../config/paths.ts';
import {
  issuedOnText,
  RECEIPT_STATUS_LABELS,
  receiptAmountText,
  receiptLinksText,
  shortHash,
} from '../receipt-format.ts';

/** The number of a receipt, which is its row's id. */
export function receiptRowId(receipt: RegisteredReceipt): number {
  return receipt.number;
}

const dash = (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);

const columns: InfiniteTableColumn<RegisteredReceipt>[] = [
  { key: 'number', header: 'Number', width: 80, render: (receipt) => `n° ${receipt.number}` },
  { key: 'issuedOn', header: 'Issued on', width: 110, render: (receipt) => issuedOnText(receipt.issuedAt) },
  {
    key: 'donor',
    header: 'Donor',
    render: (receipt) => (
      <Anchor
        component={Link}
        to={paths.subscriber.href(receipt.subscriberId)}
        fw={500}
        title={receipt.subscriberName}
      >
        {receipt.subscriberName}
      </Anchor>
    ),
  },
  {
    key: 'amount',
    header: 'Amount',
    width: 130,
    align: 'right',
    render: (receipt) => receiptAmountText(receipt),
  },
  {
    key: 'status',
    header: 'Status',
    width: 150,
    render: (receipt) => {
      const status = RECEIPT_STATUS_LABELS[receipt.status];
      return (
        // A coloured dot beside dark text: light badges fall short of the AA contrast ratio.
        <Badge
          color={status.color}
          variant="dot"
          style={{ overflow: 'visible' }}
          title={receipt.cancelReason ? `Cancelled: ${receipt.cancelReason}` : undefined}
        >
          {status.label}
        </Badge>
      );
    },
  },
  {
    key: 'links',
    header: 'Notes',
    render: (receipt) => {
      const links = receiptLinksText(receipt);
      const text = [links, receipt.cancelReason].filter(Boolean).join(' · ');
      if (!text) return dash;
      return (
        <span title={text}>
          {links}
          {links && receipt.cancelReason ? ' · ' : null}
          {receipt.cancelReason ? (
            <Text span size="sm" c="dimmed">
              {receipt.cancelReason}
            </Text>
          ) : null}
        </span>
      );
    },
  },
  {
    key: 'hash',
    header: 'Hash',
    width: 130,
    render: (receipt) => (
      <Text span ff="monospace" size="xs" title={receipt.hash}>
        {shortHash(receipt.hash)}
      </Text>
    ),
  },
];

type ReceiptsTableProps = {
  list: InfiniteList<RegisteredReceipt>;
  /** The message when nothing is listed: no receipt yet, or none matching the filters. */
  emptyMessage: string;
  /** Whether the signed-in user may cancel and replace receipts (Administrators). */
  canChange: boolean;
  /** The number of the receipt whose PDF is on its way, if any. */
  downloading: number | null;
  onDownload: (receipt: RegisteredReceipt) => void;
  onCancel: (receipt: RegisteredReceipt) => void;
  onReplace: (receipt: RegisteredReceipt) => void;
};

/**
 * The register, by number, 50 a page with infinite scroll: number, issued on (`dd/mm/yyyy`), donor (a
 * link to the subscriber), amount with its currency, status (a dot badge), the receipt it replaces or
 * that replaced it with the reason of a cancel, and the first 12 hex digits of its hash (all of it in
 * the title). Row actions: PDF, and for Administrators on an issued receipt, Cancel… and Replace….
 */
export function ReceiptsTable({
  list,
  emptyMessage,
  canChange,
  downloading,
  onDownload,
  onCancel,
  onReplace,
}: ReceiptsTableProps) {
  return (
    <InfiniteTable
      list={list}
      columns={columns}
      label="Receipts"
      rowActions={(receipt) => (
        <>
          <Button
            size="xs"
            variant="light"
            aria-label={`PDF of receipt n° ${receipt.number}`}
            loading={downloading === receipt.number}
            onClick={() => onDownload(receipt)}
          >
            PDF
          </Button>
          {canChange && receipt.status === 'issued' ? (
            <>
              <Button
                size="xs"
                variant="light"
                color="red"
                aria-label={`Cancel receipt n° ${receipt.number}…`}
                onClick={() => onCancel(receipt)}
              >
                Cancel…
              </Button>
              <Button
                size="xs"
                variant="light"
                aria-label={`Replace receipt n° ${receipt.number}…`}
                onClick={() => onReplace(receipt)}
              >
                Replace…
              </Button>
            </>
          ) : null}
        </>
      )}
      actionsWidth={canChange ? 290 : 90}
      emptyMessage={emptyMessage}
    />
  );
}
