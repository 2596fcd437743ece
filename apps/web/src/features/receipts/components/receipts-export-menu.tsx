import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconFileExport } from '@tabler/icons-react';
import { CsvDialectMenuItems } from '../../../components/csv-dialect-menu-items.tsx';
import { useCsvDialect } from '../../../lib/csv-dialect.ts';

type ReceiptsExportMenuProps = {
  busy: boolean;
  /** Exports the register in the CSV format chosen below. */
  onExport: () => void;
};

/**
 * The Export dropdown of the Receipts screen: Export the register (CSV, the filters of the search
 * shown), then the CSV format it uses (`?dialect=`, remembered per user and read by the export through
 * useCsvDialect). Busy while the file is on its way.
 */
export function ReceiptsExportMenu({ busy, onExport }: ReceiptsExportMenuProps) {
  const [dialect, setDialect] = useCsvDialect();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconFileExport size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          loading={busy}
        >
          Export
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={onExport}>Export the register</Menu.Item>
        <Menu.Divider />
        <CsvDialectMenuItems value={dialect} onChange={setDialect} />
      </Menu.Dropdown>
    </Menu>
  );
}
