import { Menu } from '@mantine/core';
import { CsvExportMenu } from '../../../components/csv-dialect-menu-items.tsx';

type ReceiptsExportMenuProps = {
  busy: boolean;
  /** Exports the register in the CSV format chosen below. */
  onExport: () => void;
};

/**
 * The Export dropdown of the Receipts screen: Export the register (CSV, the filters of the search
 * shown), then the CSV format it uses. Busy while the file is on its way.
 */
export function ReceiptsExportMenu({ busy, onExport }: ReceiptsExportMenuProps) {
  return (
    <CsvExportMenu busy={busy}>
      <Menu.Item onClick={onExport}>Export the register</Menu.Item>
    </CsvExportMenu>
  );
}
