import type { Job, JobState } from '@back-office/contract/jobs';
import {
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Progress,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCancelJob } from '../api/cancel-job.ts';
import { useJobs } from '../api/get-jobs.ts';

const STATE_LABELS: Record<JobState, { label: string; color: string }> = {
  queued: { label: 'Waiting', color: 'gray' },
  running: { label: 'Running', color: 'blue' },
  succeeded: { label: 'Done', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  cancelled: { label: 'Cancelled', color: 'orange' },
};

/** "Waiting", "Running", "Stopping" (cancel asked, not yet stopped), "Done", "Failed", "Cancelled". */
function stateOf(job: Job) {
  if (job.state === 'running' && job.cancelRequested) return { label: 'Stopping', color: 'orange' };
  return STATE_LABELS[job.state];
}

function JobProgress({ job }: { job: Job }) {
  if (!job.progress || job.progress.total === 0) return <Text size="sm">–</Text>;
  const { done, total } = job.progress;
  const percent = Math.round((done / total) * 100);
  const text = `${formatNumber(done)} / ${formatNumber(total)}`;
  return (
    <Stack gap={4} miw={120}>
      <Progress value={percent} aria-label={`${job.title}: ${text}`} size="md" />
      <Text size="xs">{text}</Text>
    </Stack>
  );
}

/**
 * When the job started and ended; for a waiting repeating job, its last pass and, when it is set for
 * a later time, its next one (the mail outbox runs as soon as there is mail, so it shows no "next").
 */
function JobTimes({ job }: { job: Job }) {
  if (job.repeats && job.state === 'queued') {
    const next = Date.parse(job.runAfter) > Date.now() ? formatDateTime(job.runAfter) : null;
    return (
      <Text size="sm">
        {job.finishedAt ? `Last pass: ${formatDateTime(job.finishedAt)}` : 'No pass yet'}
        {next ? (
          <>
            <br />
            Next: {next}
          </>
        ) : null}
      </Text>
    );
  }
  return (
    <Text size="sm">
      {job.startedAt ? formatDateTime(job.startedAt) : '–'}
      {job.finishedAt && !job.repeats ? (
        <>
          <br />
          Ended: {formatDateTime(job.finishedAt)}
        </>
      ) : null}
    </Text>
  );
}

/**
 * The Jobs screen (docs/decisions/013; not in the spec), Administrators only: the work that runs in
 * the background (the mail outbox, the annual receipt runs, the purge), with state, progress, who
 * started it and the last error; a queued or running job can be cancelled after a confirmation.
 */
export function JobsScreen() {
  const jobs = useJobs();
  const cancel = useCancelJob();
  const [confirming, setConfirming] = useState<Job | null>(null);

  useEffect(() => {
    if (jobs.isError) notifyError('getting the jobs');
  }, [jobs.isError]);

  const handleCancel = async () => {
    if (!confirming) return;
    const job = confirming;
    try {
      await cancel.mutateAsync(job.id);
      notifySuccess(`Job '${job.title}' was cancelled.`);
    } catch (error) {
      notifyError('cancelling the job', error instanceof ApiError ? error.detail : undefined);
    }
    setConfirming(null);
  };

  return (
    <>
      <PageHeader title="Jobs" />
      {jobs.isPending ? (
        <Loader aria-label="Loading the jobs" />
      ) : (jobs.data ?? []).length === 0 ? (
        <EmptyState message="No jobs yet." />
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Job</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Progress</Table.Th>
                <Table.Th>Started by</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th>Error</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(jobs.data ?? []).map((job) => {
                const state = stateOf(job);
                return (
                  <Table.Tr key={job.id}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {job.title}
                      </Text>
                      {job.repeats ? (
                        <Text size="xs" c="dimmed">
                          Runs on its own
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td miw={120}>
                      {/* A coloured dot beside dark text: light badges fall short of the AA contrast ratio. */}
                      <Badge color={state.color} variant="dot" style={{ overflow: 'visible' }}>
                        {state.label}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <JobProgress job={job} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{job.startedBy ?? 'The server'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <JobTimes job={job} />
                    </Table.Td>
                    <Table.Td maw={260}>
                      <Text
                        size="sm"
                        c={job.lastError ? 'red.8' : undefined}
                        style={{ wordBreak: 'break-word' }}
                      >
                        {job.lastError ?? ''}
                      </Text>
                      {job.lastError && job.state === 'queued' ? (
                        <Text size="xs" c="dimmed">
                          Attempt {job.attempts} of {job.maxAttempts}, tried again later
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      {job.cancellable ? (
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          onClick={() => setConfirming(job)}
                          aria-label={`Cancel ${job.title}`}
                        >
                          Cancel
                        </Button>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title="Cancel this job?"
        centered
      >
        <Text size="sm" mb="md">
          {confirming?.kind === 'receipts.annual-run'
            ? `'${confirming.title}' stops after the donor in hand: the receipts already sent stay sent, the others are not sent.`
            : `'${confirming?.title ?? ''}' stops at the next safe point.`}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(null)} disabled={cancel.isPending}>
            Keep it
          </Button>
          <Button color="red" onClick={handleCancel} loading={cancel.isPending}>
            Cancel job
          </Button>
        </Group>
      </Modal>
    </>
  );
}
