import type { SaleSummary } from '@back-office/contract/sales';
import { Anchor, Button, Group } from '@mantine/core';
import { IconCash, IconFileInvoice, IconReceiptRefund } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  type InfiniteList,
  InfiniteTable,
  type InfiniteTableColumn,
} from '../../../components/infinite-table.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { formatMoney } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDeleteSale } from '../api/delete-sale.ts';
import { useDownloadCreditNote } from '../api/download-credit-note.ts';
import { useDownloadSaleInvoice } from '../api/download-sale-invoice.ts';
import { CancelSaleModal } from './cancel-sale-modal.tsx';
import { PaymentStatusBadge } from './payment-status-badge.tsx';
import { SalePaymentsModal } from './sale-payments-modal.tsx';

/** §2.5 messages. */
export const ENTER_CRITERIA_MESSAGE = 'Please enter some search criteria.';
export const NO_MATCH_MESSAGE = 'No sales match the search criteria.';
export const NO_SALES_YET_MESSAGE = 'No sales for this subscriber yet.';
/** Why Remove failed on a sale whose invoice was issued (the server's 409 `sales.invoice_issued`). */
export const INVOICE_ISSUED_REASON = 'Its invoice was issued: cancel the sale with a credit note instead.';

/** §2.5 Amount: "total in French number format, 2 decimals, currency symbol in brackets": `1 234,50 (€)`. */
export function saleAmountText(total: number, currencySymbol: string): string {
  return `${formatMoney(total)} (${currencySymbol})`;
}

/** §2.5 Date: `yyyy-MM-dd` of the sale, in local time. */
export function saleDateText(dateAdded: string): string {
  const date = dayjs(dateAdded);
  return date.isValid() ? date.format('YYYY-MM-DD') : '';
}

const columns: InfiniteTableColumn<SaleSummary>[] = [
  {
    key: 'name',
    header: 'Name',
    render: (sale) => (
      <Anchor component={Link} to={paths.subscriber.href(sale.subscriberId)} size="sm">
        {sale.fullName}
      </Anchor>
    ),
  },
  { key: 'address', header: 'Address', render: (sale) => sale.address },
  {
    key: 'ref',
    header: 'Ref',
    width: 150,
    render: (sale) => (
      <Group gap={4} wrap="wrap">
        <span>{sale.status === 'cancelled' ? `#${sale.ref} (cancelled)` : `#${sale.ref}`}</span>
        <PaymentStatusBadge status={sale.paymentStatus} />
      </Group>
    ),
  },
  {
    key: 'amount',
    header: 'Amount',
    width: 150,
    align: 'right',
    render: (sale) => saleAmountText(sale.total, sale.currencySymbol),
  },
  { key: 'date', header: 'Date', width: 120, render: (sale) => saleDateText(sale.dateAdded) },
];

type SalesListProps = {
  list: InfiniteList<SaleSummary>;
  /** The message of a search that found nothing (depends on the mode, §4 Sales list). */
  emptyMessage: string;
};

/**
 * The Sales results (part 2 §2.5, §4 Row delete, §8): Name (link to the subscriber), Address, Ref as
 * `#ref`, Amount as `1 234,50 (€)`, Date; per row an Invoice download and the two-step Remove, the row
 * fading out once the server deleted the sale. A sale whose invoice was issued also shows Cancel (a
 * credit note, with a reason dialog) and its Remove answers why it cannot; a cancelled sale shows
 * `(cancelled)` by its ref and its credit note's download. The payment status of an issued invoice shows
 * as a badge under its ref, and its Record payment (Payments once paid) opens its payments (docs/decisions/032).
 * Infinite scroll of 50 rows a page, newest first.
 */
export function SalesList({ list, emptyMessage }: SalesListProps) {
  const deleteSale = useDeleteSale();
  const [cancelling, setCancelling] = useState<SaleSummary | null>(null);
  const [paying, setPaying] = useState<SaleSummary | null>(null);

  const handleRemove = async (sale: SaleSummary): Promise<boolean> => {
    try {
      await deleteSale.mutateAsync(sale.id);
    } catch (error) {
      notifyError(
        'deleting the sale',
        error instanceof ApiError && error.code === 'sales.invoice_issued'
          ? INVOICE_ISSUED_REASON
          : undefined,
      );
      return false;
    }
    notifySuccess(`Sale for '${saleAmountText(sale.total, sale.currencySymbol)}' was deleted successfully!`);
    return true;
  };

  return (
    <>
      <InfiniteTable
        list={list}
        columns={columns}
        label="Sales"
        rowActions={(sale) => (
          <>
            <InvoiceButton sale={sale} />
            {sale.paymentStatus !== null ? (
              <Button
                size="xs"
                variant="light"
                color="teal"
                leftSection={<IconCash size={14} aria-hidden />}
                aria-label={`${sale.paymentStatus === 'paid' ? 'Payments' : 'Record payment'} #${sale.ref}`}
                onClick={() => setPaying(sale)}
              >
                {sale.paymentStatus === 'paid' ? 'Payments' : 'Record payment'}
              </Button>
            ) : null}
            {sale.status === 'cancelled' && sale.creditNoteNumber !== null ? (
              <CreditNoteButton sale={{ ...sale, creditNoteNumber: sale.creditNoteNumber }} />
            ) : sale.invoiceIssued ? (
              <Button size="xs" variant="light" color="orange" onClick={() => setCancelling(sale)}>
                Cancel sale
              </Button>
            ) : null}
          </>
        )}
        onRemove={handleRemove}
        actionsWidth={520}
        idleMessage={ENTER_CRITERIA_MESSAGE}
        emptyMessage={emptyMessage}
      />
      <CancelSaleModal sale={cancelling} onClose={() => setCancelling(null)} />
      <SalePaymentsModal sale={paying} onClose={() => setPaying(null)} />
    </>
  );
}

/** The credit note download of a cancelled sale, named with its number. */
function CreditNoteButton({ sale }: { sale: SaleSummary & { creditNoteNumber: number } }) {
  const download = useDownloadCreditNote();
  return (
    <Button
      size="xs"
      variant="light"
      color="gray"
      leftSection={<IconReceiptRefund size={14} aria-hidden />}
      loading={download.isPending}
      onClick={() => download.mutate(sale, { onError: () => notifyError('getting the credit note') })}
    >
      Credit note n° {sale.creditNoteNumber}
    </Button>
  );
}

/** §2.5 "an Invoice download button"; §8 "getting the sale invoice" on failure. */
function InvoiceButton({ sale }: { sale: SaleSummary }) {
  const download = useDownloadSaleInvoice();
  return (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconFileInvoice size={14} aria-hidden />}
      loading={download.isPending}
      aria-label={`Invoice #${sale.ref}`}
      onClick={() => download.mutate(sale, { onError: () => notifyError('getting the sale invoice') })}
    >
      Invoice
    </Button>
  );
}
