import type { Job } from '@back-office/contract/jobs';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { JobsScreen } from './jobs-screen.tsx';

const outbox: Job = {
  id: 1,
  kind: 'mail.outbox',
  title: 'Mail outbox',
  state: 'queued',
  progress: { done: 20, total: 20 },
  startedBy: null,
  createdAt: '2026-11-25T08:00:00.000Z',
  startedAt: '2026-11-25T08:00:00.000Z',
  finishedAt: '2026-11-25T09:00:00.000Z',
  runAfter: '2026-11-25T09:00:02.000Z',
  attempts: 0,
  maxAttempts: 0,
  lastError: null,
  cancelRequested: false,
  repeats: true,
  cancellable: false,
};

const annualRun: Job = {
  ...outbox,
  id: 7,
  kind: 'receipts.annual-run',
  title: 'Annual receipts 2025',
  state: 'running',
  progress: { done: 1284, total: 5000 },
  startedBy: 'Zoé Martin',
  finishedAt: null,
  attempts: 1,
  maxAttempts: 5,
  repeats: false,
  cancellable: true,
};

describe('JobsScreen', () => {
  it('shows each job with its state and progress, and cancels a running one after a confirmation', async () => {
    let jobs = [outbox, annualRun];
    const requests = mockFetch({
      'GET /api/jobs': () => jsonResponse(jobs),
      'POST /api/jobs/7/cancel': () => {
        jobs = [outbox, { ...annualRun, cancelRequested: true, cancellable: false }];
        return jsonResponse(jobs[1], 202);
      },
    });
    signIn();
    renderWithProviders(<JobsScreen />);

    const row = (await screen.findByText('Annual receipts 2025')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Running')).toBeInTheDocument();
    expect(within(row).getByText('1 284 / 5 000')).toBeInTheDocument();
    expect(within(row).getByText('Zoé Martin')).toBeInTheDocument();
    const outboxRow = screen.getByText('Mail outbox').closest('tr') as HTMLElement;
    expect(within(outboxRow).getByText('Waiting')).toBeInTheDocument();
    expect(within(outboxRow).getByText('The server')).toBeInTheDocument();
    expect(within(outboxRow).queryByRole('button')).not.toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: 'Cancel Annual receipts 2025' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this job?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel job' }));
    expect(await screen.findByText("Job 'Annual receipts 2025' was cancelled.")).toBeInTheDocument();
    await waitFor(() => expect(within(row).getByText('Stopping')).toBeInTheDocument());
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });
});
