import { Badge, Button, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { formatNumber } from '../../../lib/format.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useDownloadAnnualRunPrint } from '../api/download-annual-run-print.ts';
import type { AnnualRunProgress } from '../api/get-annual-runs.ts';

/** Share of a run's receipts already handled (emailed, to print or failed), 0 to 100. */
export function runPercent(run: AnnualRunProgress): number {
  if (run.total === 0) return run.status === 'done' ? 100 : 0;
  return Math.round(((run.total - run.pending) / run.total) * 100);
}

const RUN_STATUS_BADGES = {
  running: { label: 'Running', color: 'blue' },
  done: { label: 'Done', color: 'green' },
  cancelled: { label: 'Cancelled', color: 'orange' },
} as const;

/** "Running", "Done" or "Cancelled" (from the Jobs screen) as a badge. */
export function RunStatusBadge({ run }: { run: AnnualRunProgress }) {
  const badge = RUN_STATUS_BADGES[run.status];
  return (
    <Badge color={badge.color} variant="light">
      {badge.label}
    </Badge>
  );
}

/**
 * Download receipts to print: one PDF of the annual receipts of the run's donors who have
 * no email address; offered when the run has some.
 */
export function DownloadPrintButton({ run, size = 'sm' }: { run: AnnualRunProgress; size?: 'xs' | 'sm' }) {
  const download = useDownloadAnnualRunPrint();
  if (run.toPrint === 0) return null;
  return (
    <Button
      size={size}
      variant="light"
      leftSection={<IconPrinter size={16} aria-hidden />}
      loading={download.isPending}
      onClick={() =>
        download.mutate(
          { id: run.id, year: run.year },
          { onError: () => notifyError('getting the receipts to print') },
        )
      }
    >
      Download receipts to print
    </Button>
  );
}

function Count({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="xl" fw={700} c={color}>
        {formatNumber(value)}
      </Text>
    </Stack>
  );
}

/**
 * The progress of one annual receipt run: a bar of the receipts handled so far, the receipts issued,
 * the counts emailed / to print / failed / pending out of the total, the donors left out because each
 * gift already has its own receipt; the print file once there is one.
 */
export function AnnualRunProgressCard({ run }: { run: AnnualRunProgress }) {
  const percent = runPercent(run);
  return (
    <Paper withBorder radius="md" p="md" aria-label={`Annual receipts ${run.year}`} component="section">
      <Stack gap="md">
        <Group justify="space-between">
          <Group gap="sm">
            <Title order={2} size="h4">
              Annual receipts {run.year}
            </Title>
            <RunStatusBadge run={run} />
          </Group>
          <Text size="sm" c="dimmed">
            {formatNumber(run.total - run.pending)} of {formatNumber(run.total)} donors handled
          </Text>
        </Group>
        <Progress
          value={percent}
          size="lg"
          striped={run.status === 'running'}
          animated={run.status === 'running'}
          color={run.failed > 0 ? 'orange' : run.status === 'done' ? 'green' : 'blue'}
          aria-label={`Progress of the annual receipts of ${run.year}`}
        />
        <SimpleGrid cols={{ base: 2, sm: 5 }}>
          <Count label="Receipts issued" value={run.receiptsIssued} />
          <Count label="Emailed" value={run.emailed} {...(run.emailed > 0 ? { color: 'green.7' } : {})} />
          <Count label="To print" value={run.toPrint} />
          <Count label="Failed" value={run.failed} {...(run.failed > 0 ? { color: 'red.7' } : {})} />
          <Count label="Pending" value={run.pending} />
        </SimpleGrid>
        {run.skippedSingleReceipts > 0 ? (
          <Text size="sm">
            {formatNumber(run.skippedSingleReceipts)} donor(s) left out: each of their gifts of {run.year}{' '}
            already has its own receipt.
          </Text>
        ) : null}
        <Group justify="flex-end">
          <DownloadPrintButton run={run} />
        </Group>
      </Stack>
    </Paper>
  );
}
