import type { ExportFile } from '@back-office/contract/exports';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error.ts';
import { backgroundExportClock, exportFile, xlsxResponse } from '../../testing/exports.ts';
import { deferred, jsonResponse, mockFetch, problemResponse } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { signIn } from '../../testing/session.ts';
import type { StartExportBody } from './api/exports.ts';
import {
  EXPORT_POLL_MS,
  ExportFailedError,
  exportFailureReason,
  runBackgroundExport,
} from './background-export.tsx';

const REQUEST: StartExportBody = {
  source: 'subscribers',
  query: { name: 'Dupont', town: '', status: '', emailsOnly: false },
};

const running = (done: number) => exportFile({ state: 'running', progress: { done, total: 120_000 } });
const succeeded = exportFile({
  state: 'succeeded',
  progress: { done: 120_000, total: 120_000 },
  rows: 120_000,
  bytes: 9_000_000,
  finishedAt: '2025-03-07T09:02:00.000Z',
  expiresAt: '2025-03-08T09:02:00.000Z',
  cancellable: false,
});

/**
 * Poll answers the test gives one by one (`answer`), so that no read gets ahead of the test's
 * assertions, whatever time passes: the n-th read waits for the n-th answer.
 */
function answersOnCue() {
  const cues: ReturnType<typeof deferred<Response>>[] = [];
  const cue = (index: number) => {
    cues[index] ??= deferred<Response>();
    return cues[index];
  };
  let reads = 0;
  let answers = 0;
  return {
    respond: () => cue(reads++).promise,
    answer: (file: ExportFile) => cue(answers++).resolve(jsonResponse(file)),
  };
}

/** Answers the polls with `files` in turn, then the last one again. */
function inTurn(...files: ExportFile[]) {
  let next = 0;
  return () => jsonResponse(files[Math.min(next++, files.length - 1)]);
}

const { savedNames, elapse } = backgroundExportClock();

/** How many times the export was read. */
function pollCount(requests: { method: string; path: string }[]): number {
  return requests.filter((request) => request.method === 'GET' && request.path === '/api/exports/7').length;
}

/** Renders the app's notifications (the export itself needs no component). */
function renderNotifications() {
  return renderWithProviders(<div />).user;
}

describe('runBackgroundExport', () => {
  it('starts the export, shows its progress in one notification, then saves the file and says it is ready', async () => {
    signIn();
    const polls = answersOnCue();
    const requests = mockFetch({
      'POST /api/exports': () => jsonResponse(exportFile(), 202),
      'GET /api/exports/7': polls.respond,
      'GET /api/exports/7/file': () => xlsxResponse('subscribers-export-2025-03-07.xlsx'),
    });
    renderNotifications();

    const saved = runBackgroundExport(REQUEST);
    expect(await screen.findByText('Preparing subscribers-export.xlsx')).toBeInTheDocument();
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/exports', body: REQUEST });
    expect(screen.getByText('Waiting to start...')).toBeInTheDocument();

    await elapse();
    polls.answer(running(12_500));
    // French number format: a narrow no-break space between thousands.
    const progress = await screen.findByText(/^12\s500 of 120\s000 rows$/);
    // Read politely by screen readers, inside the one notification of this export.
    const notification = progress.closest('[role="status"]');
    expect(notification).toHaveTextContent('Preparing subscribers-export.xlsx');
    expect(screen.getAllByText(/^Preparing /)).toHaveLength(1);

    await elapse();
    polls.answer(succeeded);
    await expect(saved).resolves.toBe('subscribers-export-2025-03-07.xlsx');
    expect(savedNames()).toEqual(['subscribers-export-2025-03-07.xlsx']);
    expect(await screen.findByText('subscribers-export-2025-03-07.xlsx is ready')).toBeInTheDocument();
    expect(screen.queryByText(/^Preparing /)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();

    // Polling has stopped, and the success toast closes by itself.
    await elapse(10 * EXPORT_POLL_MS);
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /api/exports',
      'GET /api/exports/7',
      'GET /api/exports/7',
      'GET /api/exports/7/file',
    ]);
    await waitFor(() =>
      expect(screen.queryByText('subscribers-export-2025-03-07.xlsx is ready')).not.toBeInTheDocument(),
    );
  });

  it('keeps one read in flight: the next waits for the previous answer', async () => {
    signIn();
    const polls = answersOnCue();
    const requests = mockFetch({
      'POST /api/exports': () => jsonResponse(running(0), 202),
      'GET /api/exports/7': polls.respond,
      'GET /api/exports/7/file': () => xlsxResponse('subscribers-export.xlsx'),
    });
    renderNotifications();

    const saved = runBackgroundExport(REQUEST);
    expect(await screen.findByText(/^0 of 120\s000 rows$/)).toBeInTheDocument();
    await elapse();
    expect(pollCount(requests)).toBe(1);
    await elapse(5 * EXPORT_POLL_MS);
    expect(pollCount(requests)).toBe(1);

    polls.answer(running(60_000));
    expect(await screen.findByText(/^60\s000 of 120\s000 rows$/)).toBeInTheDocument();
    await elapse();
    polls.answer(succeeded);
    await expect(saved).resolves.toBe('subscribers-export.xlsx');
    expect(pollCount(requests)).toBe(2);
  });

  it('cancels with the Cancel button: the server is told, polling stops and "Export cancelled" shows', async () => {
    signIn();
    const requests = mockFetch({
      'POST /api/exports': () => jsonResponse(running(0), 202),
      'GET /api/exports/7': inTurn(running(40_000)),
      'POST /api/exports/7/cancel': () => jsonResponse({ ...running(41_000), cancellable: false }),
    });
    const user = renderNotifications();

    const saved = runBackgroundExport(REQUEST);
    await elapse();
    expect(await screen.findByText(/^40\s000 of 120\s000 rows$/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    await expect(saved).resolves.toBeNull();
    const readsBeforeCancel = pollCount(requests);
    expect(await screen.findByText('Export cancelled')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(/^Preparing /)).not.toBeInTheDocument());
    await elapse(10 * EXPORT_POLL_MS);
    expect(pollCount(requests)).toBe(readsBeforeCancel);
    expect(requests.filter((request) => request.path === '/api/exports/7/cancel')).toHaveLength(1);
    expect(savedNames()).toEqual([]);
  });

  it('reads on when the export was over before Cancel reached the server, and saves the file', async () => {
    signIn();
    let over = false;
    mockFetch({
      'POST /api/exports': () => jsonResponse(running(0), 202),
      'GET /api/exports/7': () => jsonResponse(over ? succeeded : running(119_000)),
      'POST /api/exports/7/cancel': () => {
        over = true;
        return problemResponse(409, 'exports.not_cancellable');
      },
      'GET /api/exports/7/file': () => xlsxResponse('subscribers-export.xlsx'),
    });
    const user = renderNotifications();

    const saved = runBackgroundExport(REQUEST);
    await elapse();
    expect(await screen.findByText(/^119\s000 of 120\s000 rows$/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    // The next read, a pause later, finds the export over.
    await expect(saved).resolves.toBe('subscribers-export.xlsx');
    expect(savedNames()).toEqual(['subscribers-export.xlsx']);
    expect(screen.queryByText(/Houston/)).not.toBeInTheDocument();
  });

  it("fails with the server's reason when the export failed, and stops polling", async () => {
    signIn();
    const requests = mockFetch({
      'POST /api/exports': () => jsonResponse(running(0), 202),
      'GET /api/exports/7': inTurn(
        exportFile({ state: 'failed', error: 'The export file could not be written.', cancellable: false }),
      ),
    });
    renderNotifications();

    const failure = runBackgroundExport(REQUEST).catch((reason: unknown) => reason);
    expect(await screen.findByText('Preparing subscribers-export.xlsx')).toBeInTheDocument();
    await elapse();
    const error = await failure;
    expect(error).toBeInstanceOf(ExportFailedError);
    expect(exportFailureReason(error)).toBe('The export file could not be written.');
    await waitFor(() => expect(screen.queryByText(/^Preparing /)).not.toBeInTheDocument());
    await elapse(10 * EXPORT_POLL_MS);
    expect(pollCount(requests)).toBe(1);
    expect(savedNames()).toEqual([]);
  });

  it('gives up, closing its notification, when a read fails', async () => {
    signIn();
    const requests = mockFetch({
      'POST /api/exports': () => jsonResponse(running(0), 202),
      'GET /api/exports/7': () => problemResponse(500, 'internal'),
    });
    renderNotifications();

    const failure = runBackgroundExport(REQUEST).catch((reason: unknown) => reason);
    expect(await screen.findByText('Preparing subscribers-export.xlsx')).toBeInTheDocument();
    await elapse();
    const error = await failure;
    expect(error).toBeInstanceOf(ApiError);
    await waitFor(() => expect(screen.queryByText(/^Preparing /)).not.toBeInTheDocument());
    await elapse(10 * EXPORT_POLL_MS);
    expect(pollCount(requests)).toBe(1);
  });
});
