import {
  IMPORT_FIELDS,
  type Import,
  type ImportDryRunQuery,
  type ImportDryRunRow,
} from '@back-office/contract/imports';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Pagination,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconAlertTriangle, IconDatabaseImport } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useCommitImport } from '../api/commit-import.ts';
import { DRY_RUN_PAGE_SIZE, useImportDryRun } from '../api/dry-run-import.ts';
import { countText, fieldLabel, matchReasonsText, ROW_STATUS_LABELS } from '../import-labels.ts';

type Action = 'create' | 'merge' | 'skip';
type StatusFilter = ImportDryRunQuery['status'];

const FILTERS: { value: StatusFilter; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'valid', label: 'Valid' },
  { value: 'invalid', label: 'Invalid' },
  { value: 'duplicate', label: 'Duplicates' },
];

/** The fields shown for every row when they are mapped; a field with an error on the page is shown too. */
const SHOWN_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'town',
  'postcode',
  'country',
  'amount',
  'donationDate',
];

/** The fields that get a column on this page, in the order of the kind's fields. */
function shownFields(imported: Import, rows: readonly ImportDryRunRow[]): string[] {
  const wanted = new Set(
    SHOWN_FIELDS.filter((field) => imported.mapping[field] !== null && imported.mapping[field] !== undefined),
  );
  for (const row of rows) for (const error of row.errors) wanted.add(error.field);
  const order = [
    ...SHOWN_FIELDS,
    ...IMPORT_FIELDS[imported.kind]
      .map((field) => field.field)
      .filter((field) => !SHOWN_FIELDS.includes(field)),
  ];
  const known = order.filter((field) => wanted.has(field));
  return [...known, ...[...wanted].filter((field) => !order.includes(field))];
}

/** One cell of a checked row: its value, and under it each error in dark red on a pale red cell. */
function ValueCell({ value, errors }: { value: string; errors: readonly string[] }) {
  const invalid = errors.length > 0;
  return (
    <Table.Td
      style={
        invalid
          ? {
              backgroundColor: 'var(--mantine-color-red-0)',
              boxShadow: 'inset 3px 0 0 var(--mantine-color-red-9)',
            }
          : undefined
      }
    >
      <Text size="sm" style={{ wordBreak: 'break-word' }}>
        {value}
      </Text>
      {errors.map((message) => (
        <Text key={message} size="xs" c="red.9" fw={500} style={{ wordBreak: 'break-word' }}>
          <IconAlertTriangle size={12} aria-hidden style={{ verticalAlign: 'middle', marginRight: 4 }} />
          <VisuallyHidden>Error:</VisuallyHidden> {message}
        </Text>
      ))}
    </Table.Td>
  );
}

type DuplicateCellProps = {
  row: ImportDryRunRow;
  /**
   * A subscriber or a product can be merged with the row; a donation or a sale cannot (its duplicate
   * is created or skipped; a sale is created when one of its lines says so).
   */
  mergeable: boolean;
  /** `matchId` names a subscriber (a subscriber or donation import), which the cell links to. */
  matchIsSubscriber: boolean;
  action: Action;
  onChange: (action: Action) => void;
};

/** The subscriber a duplicate matches (opened in a new tab), why, and what to do with the row. */
function DuplicateCell({ row, mergeable, matchIsSubscriber, action, onChange }: DuplicateCellProps) {
  const choices = [
    { value: 'skip', label: 'Skip' },
    { value: 'create', label: 'Create' },
    ...(row.matchId === null || !mergeable ? [] : [{ value: 'merge', label: 'Merge' }]),
  ];
  return (
    <Stack gap={4} miw={200}>
      {row.matchId === null || !matchIsSubscriber ? null : (
        <Anchor
          component={Link}
          to={paths.subscriber.href(row.matchId)}
          target="_blank"
          rel="noopener noreferrer"
          size="sm"
        >
          Subscriber no. {row.matchId} <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
        </Anchor>
      )}
      <Text size="xs">{matchReasonsText(row.matchReasons)}</Text>
      <SegmentedControl
        size="xs"
        aria-label={`Row ${row.row}: what to do`}
        data={choices}
        value={action}
        onChange={(value) => onChange(value === 'create' || value === 'merge' ? value : 'skip')}
      />
    </Stack>
  );
}

type ImportDryRunProps = {
  imported: Import;
  /** The mapping form differs from the checked mapping: the results are out of date and cannot be imported. */
  stale: boolean;
};

/**
 * The third step of an import: the dry run's totals (valid, invalid, duplicates) and its rows, 50 a
 * page, filtered by status (`POST /api/imports/{id}/dry-run`); each cell with an error shows it under
 * the value; a duplicate links to the subscriber it matches and offers Skip (the default), Create or
 * Merge, kept across pages. "Import N rows" sends those decisions (`POST /api/imports/{id}/commit`).
 */
export function ImportDryRun({ imported, stale }: ImportDryRunProps) {
  const [status, setStatus] = useState<StatusFilter>('');
  const [page, setPage] = useState(1);
  const [decisions, setDecisions] = useState<Record<number, Action>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const dryRun = useImportDryRun(imported.id, { status, listfrom: (page - 1) * DRY_RUN_PAGE_SIZE + 1 });
  const commit = useCommitImport(imported.id);

  const data = dryRun.data;
  const chosen = Object.values(decisions).filter((action) => action !== 'skip').length;
  const toImport = (data?.valid ?? 0) + chosen;
  const pages = data ? Math.max(1, Math.ceil(data.count / DRY_RUN_PAGE_SIZE)) : 1;
  const rows = data?.rows ?? [];
  const fields = shownFields(imported, rows);
  const hasDuplicates = rows.some((row) => row.status === 'duplicate');

  const handleCommit = async () => {
    setRefusal(null);
    try {
      await commit.mutateAsync({
        decisions: Object.entries(decisions).map(([row, action]) => ({ row: Number(row), action })),
      });
    } catch (error) {
      setRefusal(
        error instanceof ApiError && error.detail && error.status < 500
          ? error.detail
          : 'The import could not be started. Please try again or contact your system administrator.',
      );
    }
  };

  if (dryRun.isError && !data) {
    return (
      <Alert color="red" variant="light" title="The check results could not be loaded">
        <Text size="sm">Please check again or contact your system administrator.</Text>
      </Alert>
    );
  }
  if (!data) return <Loader aria-label="Loading the check results" />;

  return (
    <Stack gap="md">
      <Title order={3} size="h4">
        Check results
      </Title>
      <SimpleGrid
        component="ul"
        aria-label="Totals of the check"
        cols={3}
        spacing="xs"
        maw={480}
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
      >
        {(
          [
            ['Valid', data.valid],
            ['Invalid', data.invalid],
            ['Duplicates', data.duplicates],
          ] as const
        ).map(([label, count]) => (
          <Paper component="li" key={label} withBorder p="xs" radius="sm">
            <Text size="xs">{label}</Text>
            <Text size="lg" fw={700}>
              {formatNumber(count)}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>

      <Group gap="sm" wrap="wrap">
        <SegmentedControl
          aria-label="Show rows"
          data={FILTERS}
          value={status}
          onChange={(value) => {
            setStatus(FILTERS.find((filter) => filter.value === value)?.value ?? '');
            setPage(1);
          }}
        />
        <Text size="sm" aria-live="polite">
          {countText(data.count, 'row')}
          {dryRun.isFetching ? ' (loading…)' : ''}
        </Text>
      </Group>

      {rows.length === 0 ? (
        <Text size="sm">No rows of this kind.</Text>
      ) : (
        // Wide enough for every column to keep its values readable; narrower screens scroll the table sideways.
        <Table.ScrollContainer minWidth={200 + fields.length * 140 + (hasDuplicates ? 240 : 0)}>
          <Table striped verticalSpacing="xs" aria-label="Checked rows">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Row</Table.Th>
                <Table.Th>Status</Table.Th>
                {fields.map((field) => (
                  <Table.Th key={field}>{fieldLabel(imported.kind, field)}</Table.Th>
                ))}
                {hasDuplicates ? <Table.Th>Duplicate of</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => {
                const label = ROW_STATUS_LABELS[row.status];
                return (
                  <Table.Tr key={row.row}>
                    <Table.Td>{formatNumber(row.row)}</Table.Td>
                    <Table.Td miw={120}>
                      {/* A coloured dot beside dark text: light badges fall short of the AA contrast ratio. */}
                      <Badge color={label.color} variant="dot" style={{ overflow: 'visible' }}>
                        {label.label}
                      </Badge>
                    </Table.Td>
                    {fields.map((field) => (
                      <ValueCell
                        key={field}
                        value={row.values[field] ?? ''}
                        errors={row.errors
                          .filter((error) => error.field === field)
                          .map((error) => error.message)}
                      />
                    ))}
                    {hasDuplicates ? (
                      <Table.Td>
                        {row.status === 'duplicate' ? (
                          <DuplicateCell
                            row={row}
                            mergeable={imported.kind === 'subscribers' || imported.kind === 'products'}
                            matchIsSubscriber={
                              imported.kind === 'subscribers' || imported.kind === 'donations'
                            }
                            action={decisions[row.row] ?? 'skip'}
                            onChange={(action) =>
                              setDecisions((current) => ({ ...current, [row.row]: action }))
                            }
                          />
                        ) : null}
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      {pages > 1 ? (
        <nav aria-label="Pages of the checked rows">
          <Pagination
            total={pages}
            value={page}
            onChange={setPage}
            size="sm"
            getControlProps={(control) => ({
              'aria-label':
                control === 'previous' ? 'Previous page' : control === 'next' ? 'Next page' : control,
            })}
          />
        </nav>
      ) : null}

      {stale ? (
        <Alert color="orange" variant="light" title="The mapping changed">
          <Text size="sm">
            Check again before importing: these results are for the mapping checked before.
          </Text>
        </Alert>
      ) : null}
      {refusal ? (
        <Alert color="red" variant="light" title="Not imported">
          <Text size="sm">{refusal}</Text>
        </Alert>
      ) : null}
      <Group gap="sm">
        <Button
          onClick={handleCommit}
          loading={commit.isPending}
          disabled={stale || toImport === 0}
          leftSection={<IconDatabaseImport size={16} aria-hidden />}
        >
          Import {countText(toImport, 'row')}
        </Button>
        <Text size="sm">
          Invalid rows are left out; duplicates are skipped unless Create or Merge is chosen.
        </Text>
      </Group>
    </Stack>
  );
}
