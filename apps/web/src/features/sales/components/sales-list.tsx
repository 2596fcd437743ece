import type { SaleSummary } from '@back-office/contract/sales';
import { Anchor, Button } from '@mantine/core';
import { IconFileInvoice } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import {
  type InfiniteList,
  InfiniteTable,
  type InfiniteTableColumn,
} from '../../../components/infinite-table.tsx';
import { paths } from '../../../config/paths.ts';
import { formatMoney } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDeleteSale } from '../api/delete-sale.ts';
import { useDownloadSaleInvoice } from '../api/download-sale-invoice.ts';

/** §2.5 messages. */
export const ENTER_CRITERIA_MESSAGE = 'Please enter some search criteria.';
export const NO_MATCH_MESSAGE = 'No sales match the search criteria.';
export const NO_SALES_YET_MESSAGE = 'No sales for this subscriber yet.';

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
  { key: 'ref', header: 'Ref', width: 100, render: (sale) => `#${sale.ref}` },
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
 * fading out once the server deleted the sale. Infinite scroll of 50 rows a page, newest first.
 */
export function SalesList({ list, emptyMessage }: SalesListProps) {
  const deleteSale = useDeleteSale();

  const handleRemove = async (sale: SaleSummary): Promise<boolean> => {
    try {
      await deleteSale.mutateAsync(sale.id);
    } catch {
      notifyError('deleting the sale');
      return false;
    }
    notifySuccess(`Sale for '${saleAmountText(sale.total, sale.currencySymbol)}' was deleted successfully!`);
    return true;
  };

  return (
    <InfiniteTable
      list={list}
      columns={columns}
      label="Sales"
      rowActions={(sale) => <InvoiceButton sale={sale} />}
      onRemove={handleRemove}
      actionsWidth={380}
      idleMessage={ENTER_CRITERIA_MESSAGE}
      emptyMessage={emptyMessage}
    />
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
