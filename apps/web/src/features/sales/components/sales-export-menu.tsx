import { Menu } from '@mantine/core';
import { CsvExportMenu } from '../../../components/csv-dialect-menu-items.tsx';

type SalesExportMenuProps = {
  /** Export Sales Totals shows only without a subscriber (§2.5). */
  withTotals: boolean;
  busy: boolean;
  onExportTotals: () => void;
  onExport: (detailed: boolean) => void;
};

/**
 * The Export dropdown of the Sales list (part 2 §2.5): Export Sales Totals (only without a subscriber),
 * Export Itemised Sales, Export Sales, then the CSV format they use (part 2 §7 `?dialect=`, remembered
 * per user and read by the exports through useCsvDialect). Busy while a file is on its way.
 */
export function SalesExportMenu({ withTotals, busy, onExportTotals, onExport }: SalesExportMenuProps) {
  return (
    <CsvExportMenu busy={busy}>
      {withTotals ? <Menu.Item onClick={onExportTotals}>Export Sales Totals</Menu.Item> : null}
      <Menu.Item onClick={() => onExport(true)}>Export Itemised Sales</Menu.Item>
      <Menu.Item onClick={() => onExport(false)}>Export Sales</Menu.Item>
    </CsvExportMenu>
  );
}
