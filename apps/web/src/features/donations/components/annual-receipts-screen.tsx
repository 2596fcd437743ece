import {
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { organisationYear } from '../../../lib/calendar.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import {
  type AnnualRunProgress,
  annualRunsQueryKey,
  useAnnualRun,
  useAnnualRuns,
} from '../api/get-annual-runs.ts';
import { useStartAnnualRun } from '../api/start-annual-run.ts';
import { AnnualRunProgressCard, DownloadPrintButton, RunStatusBadge } from './annual-run-progress.tsx';

/** How many past years the year list offers. */
const YEARS_OFFERED = 10;

/** The years offered, newest first: this year and the previous ones. */
export function yearOptions(now: Date = new Date()): string[] {
  const current = organisationYear(now);
  return Array.from({ length: YEARS_OFFERED + 1 }, (_, index) => String(current - index));
}

const plural = (count: number, one: string, many: string) =>
  `${formatNumber(count)} ${count === 1 ? one : many}`;

/**
 * The toast once a run is over: how many receipts were issued and emailed, and each reason a donor
 * was not emailed (no email address: to print; every gift already on its own receipt; failures with
 * their reasons), e.g. "The annual receipts of 2025 are done: 12 receipts issued, 10 donors emailed.
 * Not emailed: 2 without an email address (to print)."
 */
export function runFinishedMessage(run: AnnualRunProgress): string {
  const done = `The annual receipts of ${run.year} are done: ${plural(run.receiptsIssued, 'receipt', 'receipts')} issued, ${plural(run.emailed, 'donor', 'donors')} emailed.`;
  const notEmailed = [];
  if (run.toPrint > 0) notEmailed.push(`${formatNumber(run.toPrint)} without an email address (to print)`);
  if (run.skippedSingleReceipts > 0) {
    notEmailed.push(`${formatNumber(run.skippedSingleReceipts)} whose gifts all have their own receipt`);
  }
  if (run.failed > 0) {
    const reasons = run.failures.map(
      (failure) => `${failure.reason.replace(/\.$/, '')} (${formatNumber(failure.count)})`,
    );
    notEmailed.push(`${formatNumber(run.failed)} failed: ${reasons.join('; ')}`);
  }
  const skipped = notEmailed.length > 0 ? ` Not emailed: ${notEmailed.join(', ')}.` : '';
  const again =
    run.alreadyIssued > 0
      ? ` ${plural(run.alreadyIssued, 'donor', 'donors')} already had the receipt, sent again with the same number.`
      : '';
  return done + skipped + again;
}

/**
 * Annual Receipts (an addition to the spec; Administrators only): choose a year (last year by
 * default), Send annual receipts after a confirmation, then follow the run's progress (asked every
 * 2 s until done), the recent runs, and the PDF of the receipts to print for donors without email.
 */
export function AnnualReceiptsScreen() {
  const queryClient = useQueryClient();
  const [year, setYear] = useState(() => String(organisationYear() - 1));
  const [confirming, setConfirming] = useState(false);
  const [trackedId, setTrackedId] = useState<number | null>(null);
  const runs = useAnnualRuns();
  const startRun = useStartAnnualRun();
  const tracked = useAnnualRun(trackedId);
  const announced = useRef(new Set<number>());

  // Follow a run already under way when the screen opens (e.g. started by another Administrator).
  useEffect(() => {
    if (trackedId !== null || !runs.data) return;
    const running = runs.data.find((run) => run.status === 'running');
    if (running) setTrackedId(running.id);
  }, [runs.data, trackedId]);

  useEffect(() => {
    if (runs.isError) notifyError('getting the annual receipt runs');
  }, [runs.isError]);

  const run = tracked.data;
  useEffect(() => {
    if (run?.status !== 'done' || announced.current.has(run.id)) return;
    announced.current.add(run.id);
    notifySuccess(runFinishedMessage(run));
    void queryClient.invalidateQueries({ queryKey: annualRunsQueryKey, exact: true });
  }, [run, queryClient]);

  const handleStart = () => {
    setConfirming(false);
    startRun.mutate(Number(year), {
      onSuccess: (started) => {
        if (started.status === 'done') announced.current.delete(started.id);
        setTrackedId(started.id);
      },
      onError: (error) => {
        const reason = error instanceof ApiError && error.status === 409 ? error.detail : undefined;
        notifyError('starting the annual receipts', reason);
      },
    });
  };

  const running = run?.status === 'running';

  return (
    <>
      <PageHeader title="Annual Receipts" />
      <Stack gap="lg">
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Text>
              Issues the annual tax receipt of every donor of the chosen year and emails it to those who have
              an email address. The receipts of the others are gathered into one PDF to print.
            </Text>
            <Group align="flex-end" gap="sm">
              <Select
                label="Year"
                data={yearOptions()}
                value={year}
                onChange={(value) => setYear(value ?? year)}
                allowDeselect={false}
                w={140}
              />
              <Button onClick={() => setConfirming(true)} loading={startRun.isPending} disabled={running}>
                Send annual receipts
              </Button>
            </Group>
          </Stack>
        </Paper>

        {run ? <AnnualRunProgressCard run={run} /> : null}

        <Stack gap="xs">
          <Title order={2} size="h4">
            Recent runs
          </Title>
          <RecentRuns runs={runs.data} loading={runs.isPending} />
        </Stack>
      </Stack>

      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Send annual receipts"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <Stack gap="md">
          <Text>
            Send the annual receipts of {year}? Every donor of {year} with an email address will receive their
            tax receipt by email; the others' receipts will be ready to print.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button onClick={handleStart}>Send</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function RecentRuns({ runs, loading }: { runs: AnnualRunProgress[] | undefined; loading: boolean }) {
  if (loading) {
    return (
      <Center py="md">
        <Loader size="sm" aria-label="Loading..." />
      </Center>
    );
  }
  if (!runs) return null;
  if (runs.length === 0) return <EmptyState message="No annual receipts have been sent yet." />;
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={860}>
        <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Recent runs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Year</Table.Th>
              <Table.Th>Started</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th ta="right">Emailed</Table.Th>
              <Table.Th ta="right">To print</Table.Th>
              <Table.Th ta="right">Failed</Table.Th>
              <Table.Th ta="right">Pending</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.map((run) => (
              <Table.Tr key={run.id}>
                <Table.Td fw={500}>{run.year}</Table.Td>
                <Table.Td>{formatDateTime(run.startedAt)}</Table.Td>
                <Table.Td>{run.startedBy}</Table.Td>
                <Table.Td>
                  <RunStatusBadge run={run} />
                </Table.Td>
                <Table.Td ta="right">{formatNumber(run.emailed)}</Table.Td>
                <Table.Td ta="right">{formatNumber(run.toPrint)}</Table.Td>
                <Table.Td ta="right">{formatNumber(run.failed)}</Table.Td>
                <Table.Td ta="right">{formatNumber(run.pending)}</Table.Td>
                <Table.Td ta="right">
                  <DownloadPrintButton run={run} size="xs" />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
