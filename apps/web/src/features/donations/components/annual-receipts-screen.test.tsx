import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { organisationYear } from '../../../lib/calendar.ts';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import type { AnnualRunProgress } from '../api/get-annual-runs.ts';
import { AnnualReceiptsScreen } from './annual-receipts-screen.tsx';

const lastYear = organisationYear() - 1; // the organisation's year, not the browser's

function progress(overrides: Partial<AnnualRunProgress>): AnnualRunProgress {
  return {
    id: 7,
    year: lastYear,
    status: 'running',
    startedBy: 'Ada Admin',
    startedAt: '2026-01-15T09:00:00.000Z',
    finishedAt: null,
    total: 4,
    pending: 4,
    emailed: 0,
    toPrint: 0,
    failed: 0,
    receiptsIssued: 0,
    alreadyIssued: 0,
    skippedSingleReceipts: 0,
    failures: [],
    ...overrides,
  };
}

describe('AnnualReceiptsScreen', () => {
  it('starts the run of last year after a confirmation and follows its progress until done', async () => {
    signIn();
    const answers = [
      progress({ pending: 2, emailed: 1, toPrint: 1 }),
      progress({
        status: 'done',
        pending: 0,
        emailed: 2,
        toPrint: 1,
        failed: 1,
        receiptsIssued: 3,
        alreadyIssued: 1,
        skippedSingleReceipts: 2,
        failures: [
          { reason: 'This subscriber has no donation in 2025 that an annual receipt can cover.', count: 1 },
        ],
        finishedAt: '2026-01-15T09:01:00.000Z',
      }),
    ];
    let runs: AnnualRunProgress[] = [];
    const requests = mockFetch({
      'GET /api/donations/annual-runs': () => jsonResponse(runs),
      'POST /api/donations/annual-runs': () => {
        runs = [progress({})];
        return jsonResponse(progress({}), 202);
      },
      'GET /api/donations/annual-runs/7': () => {
        const next = answers.length > 1 ? answers.shift() : answers[0];
        if (next?.status === 'done') runs = [next];
        return jsonResponse(next);
      },
    });
    const { user } = renderWithProviders(<AnnualReceiptsScreen />);
    expect(await screen.findByText('No annual receipts have been sent yet.')).toBeInTheDocument();
    expect(screen.getAllByLabelText('Year')[0]).toHaveValue(String(lastYear));

    await user.click(screen.getByRole('button', { name: 'Send annual receipts' }));
    const dialog = screen.getByRole('dialog', { name: 'Send annual receipts' });
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));

    const card = await screen.findByRole('region', { name: `Annual receipts ${lastYear}` });
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({ year: lastYear });
    await within(card).findByText('2 of 4 donors handled');
    expect(within(card).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
    expect(within(card).getByRole('button', { name: 'Download receipts to print' })).toBeInTheDocument();

    expect(
      await screen.findByText(
        `The annual receipts of ${lastYear} are done: 3 receipts issued, 2 donors emailed. Not emailed: 1 without an email address (to print), 2 whose gifts all have their own receipt, 1 failed: This subscriber has no donation in 2025 that an annual receipt can cover (1). 1 donor already had the receipt, sent again with the same number.`,
        undefined,
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    expect(within(card).getByText('Done')).toBeInTheDocument();
    expect(within(card).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    const table = await screen.findByRole('table', { name: 'Recent runs' });
    expect(await within(table).findByText('Done')).toBeInTheDocument();
  }, 15_000);

  it('says why a run cannot start while one is under way', async () => {
    signIn();
    mockFetch({
      'GET /api/donations/annual-runs': () => jsonResponse([]),
      'POST /api/donations/annual-runs': () =>
        problemResponse(409, 'annual_runs.running', {
          detail: `The annual receipts of ${lastYear} are already being sent.`,
        }),
    });
    const { user } = renderWithProviders(<AnnualReceiptsScreen />);
    await screen.findByText('No annual receipts have been sent yet.');
    await user.click(screen.getByRole('button', { name: 'Send annual receipts' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Send annual receipts' })).getByRole('button', {
        name: 'Send',
      }),
    );
    expect(
      await screen.findByText(
        `Houston - there was a problem starting the annual receipts. The annual receipts of ${lastYear} are already being sent. Please try again or contact your system administrator.`,
      ),
    ).toBeInTheDocument();
  });
});
