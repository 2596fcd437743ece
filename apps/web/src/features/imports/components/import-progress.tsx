import { IMPORT_KEPT_DAYS, type Import } from '@back-office/contract/imports';
import { Alert, List, Progress, Stack, Text } from '@mantine/core';
import { formatFrenchDateTime, formatNumber } from '../../../lib/format.ts';
import { countText, fieldLabel } from '../import-labels.ts';

/** "3 created, 1 merged, 2 skipped". */
export function importCountsText(imported: Pick<Import, 'created' | 'merged' | 'skipped'>): string {
  return `${formatNumber(imported.created)} created, ${formatNumber(imported.merged)} merged, ${formatNumber(imported.skipped)} skipped`;
}

/**
 * The last step of an import, as `GET /api/imports/{id}` reports it (polled by the screen): a progress
 * bar with the rows written so far while its job waits or runs; then what it did, why it failed (it
 * then wrote nothing), or when it was undone.
 */
export function ImportProgress({ imported }: { imported: Import }) {
  switch (imported.status) {
    case 'queued':
    case 'running': {
      const { processed, total } = imported;
      const percent = total > 0 ? Math.round((processed / total) * 100) : 0;
      const text = `${formatNumber(processed)} / ${countText(total, 'row')}`;
      return (
        <Stack gap={4} maw={480}>
          <Text size="sm">
            {imported.status === 'queued' ? 'Waiting for its turn…' : 'Importing…'} {text}
          </Text>
          <Progress value={percent} aria-label={`Import of ${imported.fileName}: ${text}`} size="lg" />
        </Stack>
      );
    }
    case 'committed':
      return (
        <Alert color="green" variant="light" title="Imported">
          <Text size="sm">{importCountsText(imported)}.</Text>
        </Alert>
      );
    case 'failed':
      return (
        <Alert color="red" variant="light" title="The import failed: nothing was written">
          {imported.failure ? <Text size="sm">{imported.failure}</Text> : null}
          {imported.errors.length > 0 ? (
            <List size="sm" mt="xs">
              {imported.errors.map((error) => (
                <List.Item key={`${error.row}-${error.field}-${error.message}`}>
                  Row {formatNumber(error.row)}, {fieldLabel(imported.kind, error.field)}: {error.message}
                </List.Item>
              ))}
            </List>
          ) : null}
        </Alert>
      );
    case 'undone':
      return (
        <Alert color="gray" variant="light" title="Undone">
          <Text size="sm">
            This import was undone
            {imported.undoneAt ? ` on ${formatFrenchDateTime(imported.undoneAt)}` : ''}: what it wrote was
            taken back.
          </Text>
        </Alert>
      );
    case 'expired':
      return (
        <Alert color="gray" variant="light" title="Expired">
          <Text size="sm">
            The rows of this file were deleted {IMPORT_KEPT_DAYS} days after it was imported or left aside:
            what it wrote stays, but it can no longer be imported or undone.
          </Text>
        </Alert>
      );
    default:
      return null;
  }
}
