import type { ReceiptStatus } from '@back-office/contract/receipts';
import { NumberInput, Select, SimpleGrid } from '@mantine/core';
import type { ReceiptFilters } from '../api/search-receipts.ts';
import { RECEIPT_STATUS_LABELS } from '../receipt-format.ts';

const ALL = 'all';

const statusOptions = [
  { value: ALL, label: 'All' },
  ...(Object.keys(RECEIPT_STATUS_LABELS) as ReceiptStatus[]).map((status) => ({
    value: status,
    label: RECEIPT_STATUS_LABELS[status].label,
  })),
];

type ReceiptSearchFieldsProps = {
  values: ReceiptFilters;
  onChange: (values: ReceiptFilters) => void;
  /** Why the year typed cannot be searched (out of 1900–2999), shown under it. */
  yearError?: string | undefined;
};

/**
 * The fields of the Receipts search panel: the year of the gifts (a whole number, empty for every
 * year) and the status (All, Issued, Cancelled). None is required.
 */
export function ReceiptSearchFields({ values, onChange, yearError }: ReceiptSearchFieldsProps) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
      <NumberInput
        label="Year"
        value={values.year}
        onChange={(value) => onChange({ ...values, year: typeof value === 'number' ? value : '' })}
        error={yearError}
        allowDecimal={false}
        allowNegative={false}
        thousandSeparator={false}
        hideControls
        inputMode="numeric"
        autoComplete="off"
      />
      <Select
        label="Status"
        data={statusOptions}
        value={values.status || ALL}
        onChange={(value) =>
          onChange({ ...values, status: !value || value === ALL ? '' : (value as ReceiptStatus) })
        }
        allowDeselect={false}
      />
    </SimpleGrid>
  );
}
