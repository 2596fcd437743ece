import type { ReferenceItem } from '@back-office/contract/reference-lists';
import { Select, type SelectProps } from '@mantine/core';
import { referenceItemOptions } from '../../../entities/reference-lists/index.ts';

/** Props of {@link LookupSelect}: a Select over a lookup list, its value an id (0 = none). */
export type LookupSelectProps = Omit<SelectProps, 'data' | 'value' | 'onChange' | 'defaultValue'> & {
  items: readonly ReferenceItem[];
  /** The chosen id; 0 (or nothing) for none. */
  value?: number | undefined;
  onChange: (id: number) => void;
};

/**
 * A choice in a lookup list of the subscriber form (part 2 §2.2, §9: "'None' value for category,
 * country, payment method and subscription type is 0"). Clearing the field gives 0.
 */
export function LookupSelect({ items, value = 0, onChange, ...props }: LookupSelectProps) {
  const options = referenceItemOptions(items);
  const known = options.some((option) => option.value === String(value));
  return (
    <Select
      data={options}
      value={value > 0 && known ? String(value) : null}
      onChange={(next) => onChange(next ? Number(next) : 0)}
      searchable
      clearable
      nothingFoundMessage="Nothing found"
      comboboxProps={{ withinPortal: true }}
      {...props}
    />
  );
}
