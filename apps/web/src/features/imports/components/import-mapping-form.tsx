import {
  IMPORT_FIELDS,
  type Import,
  type ImportColumn,
  type ImportField,
  type ImportKind,
  type ImportMapping,
  type ImportOptions,
  importDateFormatSchema,
  importOptionsSchema,
} from '@back-office/contract/imports';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  List,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconChecklist } from '@tabler/icons-react';
import { type FormEvent, memo, useCallback, useEffect, useMemo, useState } from 'react';
import { referenceItemOptions, useReferenceItems } from '../../../entities/reference-lists/index.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useCheckImport } from '../api/check-import.ts';
import { countText, fieldLabel } from '../import-labels.ts';

/** What "create missing" creates, for the kinds whose cells name items of a list. */
const CREATE_MISSING: Partial<Record<ImportKind, { label: string; description: string }>> = {
  subscribers: {
    label: 'Create missing reference items',
    description:
      'Countries, categories, tags… that the lists lack are created (never a currency); otherwise such a cell is an error.',
  },
  sales: {
    label: 'Create missing products',
    description:
      'Products the catalogue lacks are created, not for sale until you set their prices; otherwise such a cell is an error.',
  },
};

/** The Select value of "no column": the field is not imported. */
const NOT_IMPORTED = 'none';

const DATE_FORMAT_OPTIONS = importDateFormatSchema.options.map((format) => ({
  value: format,
  label: `${format} (${{ 'DD/MM/YYYY': '31/12/2025', 'YYYY-MM-DD': '2025-12-31', 'MM/DD/YYYY': '12/31/2025' }[format]})`,
}));

const DECIMAL_OPTIONS = [
  { value: ',', label: 'Comma (1 234,50)' },
  { value: '.', label: 'Point (1234.50)' },
];

/** A column as people recognise it: its header (or its position when it has none). */
function columnName(column: ImportColumn): string {
  return column.header.trim() || `Column ${column.index + 1}`;
}

/** Field → Select value (a column index as text, or {@link NOT_IMPORTED}). */
type MappingValues = Record<string, string>;

function mappingValues(imported: Import): MappingValues {
  return Object.fromEntries(
    IMPORT_FIELDS[imported.kind].map(({ field }) => {
      const index = imported.mapping[field];
      return [field, index === null || index === undefined ? NOT_IMPORTED : String(index)];
    }),
  );
}

function toMapping(values: MappingValues): ImportMapping {
  return Object.fromEntries(
    Object.entries(values).map(([field, value]) => [field, value === NOT_IMPORTED ? null : Number(value)]),
  );
}

function sameSettings(values: MappingValues, options: ImportOptions, imported: Import): boolean {
  const saved = mappingValues(imported);
  return (
    Object.entries(values).every(([field, value]) => saved[field] === value) &&
    JSON.stringify(options) === JSON.stringify(importOptionsSchema.parse(imported.options))
  );
}

type MappingFieldProps = {
  field: ImportField;
  columnOptions: { value: string; label: string }[];
  value: string;
  missing: boolean;
  onChange: (field: string, value: string) => void;
};

/**
 * The column picker of one field: a native select, as the kind has some thirty fields with the same
 * columns to offer (light to draw, and a phone shows its own picker).
 */
const MappingField = memo(function MappingField({
  field,
  columnOptions,
  value,
  missing,
  onChange,
}: MappingFieldProps) {
  return (
    <NativeSelect
      label={field.label}
      data={columnOptions}
      value={value}
      onChange={(event) => onChange(field.field, event.currentTarget.value)}
      withAsterisk={field.required === true}
      error={missing ? `Choose the column of ${field.label}.` : undefined}
    />
  );
});

type ImportMappingFormProps = {
  imported: Import;
  /** Called after a successful check (the mapping saved and the dry run done). */
  onChecked: () => void;
  /** Whether the form differs from the mapping and options the server holds (a dry run is then out of date). */
  onDirtyChange: (dirty: boolean) => void;
};

/**
 * The second step of an import: the file's columns with their first values, one column picker per
 * field of the kind (prefilled with the server's guess or the saved mapping; required fields marked),
 * and how cells are read (date format, decimal separator, missing reference items, default currency
 * from the currencies list). Check saves them (`PUT /api/imports/{id}/mapping`) and runs the dry run
 * (`POST /api/imports/{id}/dry-run`).
 */
export function ImportMappingForm({ imported, onChecked, onDirtyChange }: ImportMappingFormProps) {
  const check = useCheckImport(imported.id);
  const currencies = useReferenceItems('currencies');
  const fields = IMPORT_FIELDS[imported.kind];
  const [values, setValues] = useState<MappingValues>(() => mappingValues(imported));
  const [options, setOptions] = useState<ImportOptions>(() => importOptionsSchema.parse(imported.options));
  const [missing, setMissing] = useState<string[]>([]);
  const [refusal, setRefusal] = useState<{ detail: string; errors: string[] } | null>(null);

  const columnOptions = useMemo(
    () => [
      { value: NOT_IMPORTED, label: '— not imported —' },
      ...imported.columns.map((column) => ({
        value: String(column.index),
        label: column.samples[0] ? `${columnName(column)} (${column.samples[0]})` : columnName(column),
      })),
    ],
    [imported.columns],
  );

  // Stable, so that picking one column re-renders only its own picker among the many.
  const handleFieldChange = useCallback((field: string, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setMissing((current) => (current.includes(field) ? current.filter((name) => name !== field) : current));
  }, []);

  const dirty = !sameSettings(values, options, imported);
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setRefusal(null);
    const unmapped = fields
      .filter((field) => field.required && values[field.field] === NOT_IMPORTED)
      .map((field) => field.field);
    setMissing(unmapped);
    if (unmapped.length > 0) return;
    try {
      await check.mutateAsync({ mapping: toMapping(values), options });
      onChecked();
    } catch (error) {
      if (error instanceof ApiError && error.status < 500 && error.detail) {
        setRefusal({
          detail: error.detail,
          errors: error.errors.map(({ path, message }) => `${path}: ${message}`),
        });
      } else {
        setRefusal({
          detail: 'The file could not be checked. Please try again or contact your system administrator.',
          errors: [],
        });
      }
    }
  };

  const mapped = Object.values(values).filter((value) => value !== NOT_IMPORTED).length;

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Mapping">
      <Stack gap="lg">
        <Stack gap="xs">
          <Title order={3} size="h4">
            Columns of the file
          </Title>
          <Text size="sm">
            {countText(imported.rowCount, 'row')} under the header,{' '}
            {countText(imported.columns.length, 'column')}.
          </Text>
          <Table.ScrollContainer minWidth={320}>
            <Table striped verticalSpacing={4} aria-label="Columns of the file">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Column</Table.Th>
                  <Table.Th>First values</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {imported.columns.map((column) => (
                  <Table.Tr key={column.index}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {columnName(column)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ wordBreak: 'break-word' }}>
                        {column.samples.length > 0 ? column.samples.join(' · ') : '–'}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>

        <Stack gap="xs">
          <Title order={3} size="h4">
            Fields
          </Title>
          <Text size="sm">
            The column that fills each field ({formatNumber(mapped)} of {formatNumber(fields.length)} mapped).
            Fields marked * are required.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm">
            {fields.map((field) => (
              <MappingField
                key={field.field}
                field={field}
                columnOptions={columnOptions}
                value={values[field.field] ?? NOT_IMPORTED}
                missing={missing.includes(field.field)}
                onChange={handleFieldChange}
              />
            ))}
          </SimpleGrid>
        </Stack>

        <Stack gap="xs">
          <Title order={3} size="h4">
            Options
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm">
            <NativeSelect
              label="Date format"
              data={DATE_FORMAT_OPTIONS}
              value={options.dateFormat}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setOptions((current) => ({
                  ...current,
                  dateFormat: importDateFormatSchema.catch(current.dateFormat).parse(value),
                }));
              }}
            />
            <NativeSelect
              label="Decimal separator"
              data={DECIMAL_OPTIONS}
              value={options.decimalSeparator}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setOptions((current) => ({ ...current, decimalSeparator: value === '.' ? '.' : ',' }));
              }}
            />
            {/* Donations and sales are in their donor's or buyer's currency unless a cell says otherwise. */}
            {imported.kind === 'subscribers' ? (
              <NativeSelect
                label="Default currency"
                description="For rows whose currency is empty"
                data={[{ value: '', label: 'None' }, ...referenceItemOptions(currencies)]}
                value={options.defaultCurrencyId === null ? '' : String(options.defaultCurrencyId)}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setOptions((current) => ({ ...current, defaultCurrencyId: value ? Number(value) : null }));
                }}
              />
            ) : null}
          </SimpleGrid>
          {CREATE_MISSING[imported.kind] ? (
            <Checkbox
              label={CREATE_MISSING[imported.kind]?.label}
              description={CREATE_MISSING[imported.kind]?.description}
              checked={options.createMissingReferences}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                setOptions((current) => ({ ...current, createMissingReferences: checked }));
              }}
            />
          ) : null}
        </Stack>

        {missing.length > 0 ? (
          <Alert color="red" variant="light" title="Not checked">
            <Text size="sm">
              Choose a column for {missing.map((field) => fieldLabel(imported.kind, field)).join(' and ')}.
            </Text>
          </Alert>
        ) : null}
        {refusal ? (
          <Alert color="red" variant="light" title="Not checked">
            <Text size="sm">{refusal.detail}</Text>
            {refusal.errors.length > 0 ? (
              <List size="sm" mt="xs">
                {refusal.errors.map((error) => (
                  <List.Item key={error}>{error}</List.Item>
                ))}
              </List>
            ) : null}
          </Alert>
        ) : null}
        <Group>
          <Button
            type="submit"
            loading={check.isPending}
            leftSection={<IconChecklist size={16} aria-hidden />}
          >
            Check
          </Button>
          <Text size="sm">Checks every row without writing anything.</Text>
        </Group>
      </Stack>
    </form>
  );
}
