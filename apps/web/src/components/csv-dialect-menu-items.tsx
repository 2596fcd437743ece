import type { CsvDialect } from '@back-office/contract/common';
import { Button, Menu } from '@mantine/core';
import { IconCheck, IconChevronDown, IconFileExport } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useCsvDialect } from '../lib/csv-dialect.ts';

/** The two CSV dialects as staff see them. */
export const CSV_DIALECT_LABELS: Record<CsvDialect, string> = {
  'excel-fr': 'Excel (France): semicolons, decimal comma',
  rfc4180: 'Standard CSV: commas, decimal point',
};

type CsvDialectMenuItemsProps = { value: CsvDialect; onChange: (dialect: CsvDialect) => void };

/**
 * The "CSV format" part of an Export menu (part 2 §7 The calls it makes, `?dialect=`): one item per
 * dialect, the current one ticked (and `aria-current`); choosing one keeps the menu open.
 */
export function CsvDialectMenuItems({ value, onChange }: CsvDialectMenuItemsProps) {
  return (
    <>
      <Menu.Label>CSV format</Menu.Label>
      {(Object.keys(CSV_DIALECT_LABELS) as CsvDialect[]).map((dialect) => (
        <Menu.Item
          key={dialect}
          // Mantine fixes the role to menuitem, where aria-checked is not allowed: aria-current marks the choice.
          aria-current={dialect === value ? 'true' : undefined}
          closeMenuOnClick={false}
          leftSection={
            <IconCheck
              size={14}
              aria-hidden
              style={{ visibility: dialect === value ? 'visible' : 'hidden' }}
            />
          }
          onClick={() => onChange(dialect)}
        >
          {CSV_DIALECT_LABELS[dialect]}
        </Menu.Item>
      ))}
    </>
  );
}

type CsvExportMenuProps = {
  /** The button shows it is busy while a file is on its way. */
  busy: boolean;
  /** The export items (`Menu.Item`s), above the CSV format they use. */
  children: ReactNode;
};

/**
 * An Export dropdown: the screen's export items, then the CSV format they use (`?dialect=`, remembered
 * per user and read by the exports through useCsvDialect).
 */
export function CsvExportMenu({ busy, children }: CsvExportMenuProps) {
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
        {children}
        <Menu.Divider />
        <CsvDialectMenuItems value={dialect} onChange={setDialect} />
      </Menu.Dropdown>
    </Menu>
  );
}
