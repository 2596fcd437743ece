import type { CsvDialect } from '@back-office/contract/common';
import { Menu } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';

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
