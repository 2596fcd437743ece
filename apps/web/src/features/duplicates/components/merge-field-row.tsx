import type { MergeableField } from '@back-office/contract/duplicates';
import type { Subscriber } from '@back-office/contract/subscribers';
import { Grid, Radio, Text } from '@mantine/core';
import { useId } from 'react';
import { displayValue, MERGE_FIELD_LABELS, type MergeChoice, type MergeLookups } from '../merge-fields.ts';

/** The comparison's grid: the label on 2 columns, each record's value on 4 (all 10 when stacked). */
export const MERGE_GRID_COLUMNS = 10;

/** A value as the radio's label: kept as written (line breaks too), "(empty)" when there is none. */
function ValueLabel({ value }: { value: string }) {
  return (
    <Text
      span
      size="sm"
      fs={value ? undefined : 'italic'}
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
    >
      {value || '(empty)'}
    </Text>
  );
}

type MergeFieldRowProps = {
  field: MergeableField;
  keep: Subscriber;
  merge: Subscriber;
  lookups: MergeLookups;
  choice: MergeChoice;
  onChange: (choice: MergeChoice) => void;
};

/**
 * One field that differs between the two records: its label, then the kept record's value and the other
 * record's, each a radio of one group named by the label (side by side from the `sm` breakpoint,
 * stacked below it); the arrow keys move between the two.
 */
export function MergeFieldRow({ field, keep, merge, lookups, choice, onChange }: MergeFieldRowProps) {
  const labelId = useId();
  const name = `merge-field-${field}`;
  return (
    <Grid
      role="radiogroup"
      aria-labelledby={labelId}
      columns={MERGE_GRID_COLUMNS}
      gap="xs"
      align="flex-start"
    >
      <Grid.Col span={{ base: MERGE_GRID_COLUMNS, sm: 2 }}>
        <Text id={labelId} size="sm" fw={600}>
          {MERGE_FIELD_LABELS[field]}
        </Text>
      </Grid.Col>
      <Grid.Col span={{ base: MERGE_GRID_COLUMNS, sm: 4 }}>
        <Radio
          name={name}
          value="keep"
          checked={choice === 'keep'}
          onChange={() => onChange('keep')}
          label={<ValueLabel value={displayValue(field, keep, lookups)} />}
          description={`Kept record's value (no. ${keep.id})`}
        />
      </Grid.Col>
      <Grid.Col span={{ base: MERGE_GRID_COLUMNS, sm: 4 }}>
        <Radio
          name={name}
          value="merge"
          checked={choice === 'merge'}
          onChange={() => onChange('merge')}
          label={<ValueLabel value={displayValue(field, merge, lookups)} />}
          description={`Other record's value (no. ${merge.id})`}
        />
      </Grid.Col>
    </Grid>
  );
}
