import { AUDIT_ENTITY_TYPES, type AuditEntityType } from '@back-office/contract/audit';
import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { DateField } from '../../../components/date-field.tsx';
import type { AuditFilters } from '../api/search-audit-events.ts';
import { ENTITY_TYPE_LABELS } from '../audit-format.ts';

const ANY = 'any';

const entityTypeOptions = [
  { value: ANY, label: 'All records' },
  ...AUDIT_ENTITY_TYPES.map((type) => ({ value: type, label: ENTITY_TYPE_LABELS[type] })),
];

type AuditSearchFieldsProps = {
  values: AuditFilters;
  onChange: (values: AuditFilters) => void;
};

/**
 * The fields of the Audit search panel: the kind of record, who (part of a name or email), and the
 * days from and to (both included; the shared French dd/mm/yyyy date fields, sent as YYYY-MM-DD). None is required.
 */
export function AuditSearchFields({ values, onChange }: AuditSearchFieldsProps) {
  const set = <K extends keyof AuditFilters>(field: K, value: AuditFilters[K]) =>
    onChange({ ...values, [field]: value });

  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
      <Select
        label="Record"
        data={entityTypeOptions}
        value={values.entityType || ANY}
        onChange={(value) => set('entityType', !value || value === ANY ? '' : (value as AuditEntityType))}
        allowDeselect={false}
      />
      <TextInput
        label="Changed by"
        placeholder="Name or email"
        autoComplete="off"
        value={values.actor}
        onChange={(event) => set('actor', event.currentTarget.value)}
      />
      <DateField label="From" value={values.from} onChange={(value) => set('from', value)} />
      <DateField label="To" value={values.to} onChange={(value) => set('to', value)} />
    </SimpleGrid>
  );
}
