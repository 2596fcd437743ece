import type { CollectionDetail, CollectionLine } from '@back-office/contract/collections';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { recordSavedFiles } from '../../../testing/exports.ts';
import { emptyResponse, jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { CollectionDetailScreen } from './collection-detail-screen.tsx';

const LINES: CollectionLine[] = [
  {
    id: 40,
    planId: 4,
    subscriberId: 42,
    subscriberName: 'Aurélie Martin',
    rum: 'RUM-42',
    iban: '•••• 0189',
    amount: 25,
    sequenceType: 'FRST',
    endToEndId: 'C12-P4-20310323',
    status: 'pending',
  },
  {
    id: 41,
    planId: 5,
    subscriberId: 43,
    subscriberName: 'Jean Dupont',
    rum: 'RUM-43',
    iban: '•••• 3000',
    amount: 1000.5,
    sequenceType: 'RCUR',
    endToEndId: 'C12-P5-20310323',
    status: 'pending',
  },
];

const DRAFT: CollectionDetail = {
  id: 12,
  dueDate: '2031-03-23',
  count: 2,
  total: 1025.5,
  status: 'draft',
  lines: LINES,
};

const EXPORTED: CollectionDetail = {
  ...DRAFT,
  status: 'exported',
  fileVersion: 'pain.008.001.02',
  exportedAt: '2031-03-01T09:30:00.000Z',
};

/** The text of each body row's cells, spaces of every kind as plain spaces. */
function rowsOf(table: HTMLElement) {
  return [...table.querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((cell) => cell.textContent?.replace(/\s/g, ' ')),
  );
}

const xmlFile = () =>
  new Response('<Document/>', {
    headers: {
      'Content-Type': 'application/xml',
      'Content-Disposition': 'attachment; filename="collection-2031-03-23.xml"',
    },
  });

describe('CollectionDetailScreen', () => {
  let savedNames: string[] = [];
  beforeEach(() => {
    savedNames = recordSavedFiles();
  });

  it('shows a draft with its lines, and removes a line after a confirmation', async () => {
    signIn();
    let detail = DRAFT;
    const requests = mockFetch({
      'GET /api/collections/12': () => jsonResponse(detail),
      'DELETE /api/collections/12/lines/41': () => {
        detail = {
          ...DRAFT,
          count: 1,
          total: 25,
          lines: [LINES[0] as CollectionLine, { ...(LINES[1] as CollectionLine), status: 'removed' }],
        };
        return emptyResponse();
      },
    });
    const { user } = renderWithProviders(<CollectionDetailScreen id={12} />);

    expect(
      await screen.findByRole('heading', { name: 'Collection of 23/03/2031', level: 1 }),
    ).toBeInTheDocument();
    const summary = screen.getByRole('region', { name: 'Summary' });
    expect(summary.textContent?.replace(/\s/g, ' ')).toContain('Total1 025,50 €');
    expect(within(summary).getByText('2 debits')).toBeInTheDocument();
    expect(within(summary).getByText('Not exported yet')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Lines' });
    expect(rowsOf(table)).toEqual([
      ['Aurélie Martin', 'RUM-42', 'C12-P4-20310323', '•••• 0189', '25,00 €', 'FRST', 'Pending', 'Remove'],
      ['Jean Dupont', 'RUM-43', 'C12-P5-20310323', '•••• 3000', '1 000,50 €', 'RCUR', 'Pending', 'Remove'],
    ]);
    expect(within(table).getByRole('link', { name: 'Jean Dupont' })).toHaveAttribute(
      'href',
      '/subscriber/43',
    );
    expect(screen.queryByRole('button', { name: 'Settle' })).not.toBeInTheDocument();

    const row = within(table).getAllByRole('row')[2] as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Remove' }));
    await user.click(within(row).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(await screen.findByText('The debit of Jean Dupont (1 000,50 €) was removed.')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'DELETE')).toBe(true);
    await waitFor(() => expect(within(table).getByText('Removed')).toBeInTheDocument());
    expect(within(table).getAllByRole('button', { name: 'Remove' })).toHaveLength(1);
  });

  it('warns before the first download of a draft, in the version chosen', async () => {
    signIn();
    let detail = DRAFT;
    const requests = mockFetch({
      'GET /api/collections/12': () => jsonResponse(detail),
      'GET /api/collections/12/file': () => {
        detail = EXPORTED;
        return xmlFile();
      },
    });
    const { user } = renderWithProviders(<CollectionDetailScreen id={12} />);
    await user.click(await screen.findByRole('button', { name: 'Download the file' }));

    const dialog = await screen.findByRole('dialog', { name: 'Download the file' });
    expect(dialog.textContent?.replace(/\s/g, ' ')).toContain(
      'Once downloaded, the collection is locked: no line can be removed any more, and each debtor is emailed the amount and the date of the debit.',
    );
    const version = within(dialog).getByRole('combobox', { name: /File version/ });
    expect(version).toHaveValue('pain.008.001.08');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests.filter((request) => request.path.endsWith('/file'))).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Download the file' }));
    const again = await screen.findByRole('dialog', { name: 'Download the file' });
    await user.selectOptions(
      within(again).getByRole('combobox', { name: /File version/ }),
      'pain.008.001.02',
    );
    await user.click(within(again).getByRole('button', { name: 'Lock and download' }));
    expect(
      await screen.findByText(
        'The file collection-2031-03-23.xml was downloaded; the collection of 23/03/2031 is locked and the debtors are notified.',
      ),
    ).toBeInTheDocument();
    const download = requests.find((request) => request.path === '/api/collections/12/file');
    expect(Object.fromEntries(download?.query ?? [])).toEqual({ version: 'pain.008.001.02' });
    expect(savedNames).toEqual(['collection-2031-03-23.xml']);
    // Exported: no line can be removed any more, and it can be settled.
    expect(await screen.findByRole('button', { name: 'Settle' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    expect(screen.getByText('pain.008.001.02')).toBeInTheDocument();
  });

  it('downloads an exported file again at once, and settles it after a confirmation', async () => {
    signIn();
    let detail: CollectionDetail = EXPORTED;
    const requests = mockFetch({
      'GET /api/collections/12': () => jsonResponse(detail),
      'GET /api/collections/12/file': () => xmlFile(),
      'POST /api/collections/12/settle': () => {
        detail = {
          ...EXPORTED,
          status: 'settled',
          settledAt: '2031-03-25T10:00:00.000Z',
          lines: LINES.map((line, index) => ({ ...line, status: 'collected', donationId: 90 + index })),
        };
        return jsonResponse({ id: 12, dueDate: '2031-03-23', count: 2, total: 1025.5, status: 'settled' });
      },
    });
    const { user } = renderWithProviders(<CollectionDetailScreen id={12} />);
    await user.click(await screen.findByRole('button', { name: 'Download the file' }));
    expect(await screen.findByText('The file collection-2031-03-23.xml was downloaded.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const download = requests.find((request) => request.path === '/api/collections/12/file');
    expect(download?.query.get('version')).toBe('pain.008.001.02');

    await user.click(screen.getByRole('button', { name: 'Settle' }));
    const dialog = await screen.findByRole('dialog', { name: 'Settle the collection' });
    expect(dialog).toHaveTextContent('each of the 2 debits pending becomes a donation dated 23/03/2031');
    await user.click(within(dialog).getByRole('button', { name: 'Settle' }));
    expect(
      await screen.findByText('The collection of 23/03/2031 is settled: 2 debits recorded as donations.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Settled')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Settle' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Lines' })).getAllByText('Collected')).toHaveLength(2);
  });

  it("shows the server's reason when it refuses, and a returned line's reason code", async () => {
    signIn();
    const detail: CollectionDetail = {
      ...EXPORTED,
      lines: [
        { ...(LINES[0] as CollectionLine), status: 'returned', reasonCode: 'AC04' },
        LINES[1] as CollectionLine,
      ],
    };
    mockFetch({
      'GET /api/collections/12': () => jsonResponse(detail),
      'POST /api/collections/12/settle': () =>
        problemResponse(409, 'collections.settled', { detail: 'The collection 12 is settled already.' }),
    });
    const { user } = renderWithProviders(<CollectionDetailScreen id={12} />);
    const table = await screen.findByRole('table', { name: 'Lines' });
    expect(within(table).getByText('AC04 (account closed)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Settle' }));
    const dialog = await screen.findByRole('dialog', { name: 'Settle the collection' });
    await user.click(within(dialog).getByRole('button', { name: 'Settle' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem settling the collection. The collection 12 is settled already. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
  });

  it('says when no collection has the id', async () => {
    signIn();
    mockFetch({ 'GET /api/collections/99': () => problemResponse(404, 'collections.not_found') });
    renderWithProviders(<CollectionDetailScreen id={99} />);
    expect(await screen.findByText('No collection has this id.')).toBeInTheDocument();
  });
});
