import type { CollectionReturnsResult, CollectionSummary } from '@back-office/contract/collections';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { emptyDashboardRoutes } from '../../../testing/dashboard-routes.ts';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderApp, renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { CollectionsScreen } from './collections-screen.tsx';

const HISTORY: CollectionSummary[] = [
  { id: 12, dueDate: '2031-04-23', count: 2, total: 1234.5, status: 'draft' },
  { id: 11, dueDate: '2031-03-23', count: 1, total: 25, status: 'settled' },
];

/** The text of each body row's cells, spaces of every kind as plain spaces. */
function rowsOf(table: HTMLElement) {
  return [...table.querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((cell) => cell.textContent?.replace(/\s/g, ' ')),
  );
}

describe('CollectionsScreen', () => {
  it('lists the collections newest first, the French way, each opening its screen', async () => {
    signIn();
    mockFetch({ 'GET /api/collections': () => jsonResponse(HISTORY) });
    renderWithProviders(<CollectionsScreen />);

    expect(screen.getByRole('heading', { name: 'Collections', level: 1 })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Collections' });
    expect(rowsOf(table)).toEqual([
      ['23/04/2031', '2', '1 234,50 €', 'Draft'],
      ['23/03/2031', '1', '25,00 €', 'Settled'],
    ]);
    expect(screen.getByRole('link', { name: 'Collection of 23/04/2031' })).toHaveAttribute(
      'href',
      '/collections/12',
    );
  });

  it('says when no collection was built yet', async () => {
    signIn();
    mockFetch({ 'GET /api/collections': () => jsonResponse([]) });
    renderWithProviders(<CollectionsScreen />);
    expect(await screen.findByText('No collection has been built yet.')).toBeInTheDocument();
  });

  it('builds the draft of a due date typed the French way, then opens it', async () => {
    signIn();
    const built: CollectionSummary = { id: 13, dueDate: '2031-05-23', count: 3, total: 75, status: 'draft' };
    const requests = mockFetch({
      ...emptyDashboardRoutes(),
      'GET /api/collections': () => jsonResponse(HISTORY),
      'POST /api/collections': () => jsonResponse(built, 201),
      'GET /api/collections/13': () => jsonResponse({ ...built, lines: [] }),
    });
    const { user, router } = renderApp('/collections');
    const form = await screen.findByRole('form', { name: 'Build a collection' });

    await user.click(within(form).getByRole('button', { name: 'Build the collection' }));
    expect(await within(form).findByText('The due date is required.')).toBeInTheDocument();

    await user.type(within(form).getByRole('textbox', { name: /Due date/ }), '23/05/2031');
    await user.click(within(form).getByRole('button', { name: 'Build the collection' }));
    expect(
      await screen.findByText('The draft of the collection of 23/05/2031 holds 3 debits (75,00 €).'),
    ).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({ dueDate: '2031-05-23' });
    expect(
      await screen.findByRole('heading', { name: 'Collection of 23/05/2031', level: 1 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/collections/13');
  });

  it('shows a due date too soon under the field, and missing settings in a toast', async () => {
    signIn();
    const tooSoon = 'The due date must be on or after 12/12/2026: each debtor is told 14 days before.';
    let answer = () =>
      problemResponse(409, 'collections.too_soon', {
        detail: tooSoon,
        errors: [{ path: 'dueDate', message: tooSoon }],
      });
    mockFetch({
      'GET /api/collections': () => jsonResponse([]),
      'POST /api/collections': () => answer(),
    });
    const { user } = renderWithProviders(<CollectionsScreen />);
    const form = await screen.findByRole('form', { name: 'Build a collection' });
    const dueDate = within(form).getByRole('textbox', { name: /Due date/ });
    await user.type(dueDate, '01/12/2026');
    await user.click(within(form).getByRole('button', { name: 'Build the collection' }));
    expect((await within(form).findAllByText(tooSoon)).length).toBeGreaterThan(0);
    await waitFor(() => expect(dueDate).toHaveFocus());

    const setup = 'Set the SEPA creditor identifier (ICS) in the settings.';
    answer = () =>
      problemResponse(409, 'collections.setup_incomplete', {
        detail: setup,
        errors: [{ path: 'sepaCreditorId', message: setup }],
      });
    await user.click(within(form).getByRole('button', { name: 'Build the collection' }));
    expect(
      await screen.findByText(
        `Houston - there was a problem building the collection. ${setup} Please try again or contact your system administrator.`,
      ),
    ).toBeInTheDocument();
  });

  it('imports a bank return file and lists what it did to each debit', async () => {
    signIn();
    const result: CollectionReturnsResult = {
      applied: 2,
      alreadyApplied: 0,
      notSent: 0,
      unknown: 1,
      lines: [
        {
          endToEndId: 'C11-P4-20310323',
          status: 'returned',
          reasonCode: 'AC04',
          outcome: 'applied',
          collectionId: 11,
          lineId: 40,
          subscriberId: 42,
          subscriberName: 'Aurélie Martin',
          rum: 'RUM-42',
          amount: 25,
          donation: 'cancelled',
          mandateSuspended: true,
        },
        {
          endToEndId: 'C11-P5-20310323',
          status: 'returned',
          reasonCode: 'MS02',
          outcome: 'applied',
          subscriberId: 43,
          subscriberName: 'Jean Dupont',
          rum: 'RUM-43',
          amount: 10,
          donation: 'receipted',
          receiptNumber: 57,
        },
        { endToEndId: 'OTHER-1', status: 'rejected', reasonCode: 'AM04', outcome: 'unknown' },
      ],
    };
    const requests = mockFetch({
      'GET /api/collections': () => jsonResponse(HISTORY),
      'POST /api/collections/returns': () => jsonResponse(result),
    });
    const { user } = renderWithProviders(<CollectionsScreen />);
    await screen.findByRole('table', { name: 'Collections' });
    const form = screen.getByRole('form', { name: 'Import returns' });

    await user.click(within(form).getByRole('button', { name: 'Import' }));
    expect(within(form).getByText('Choose the bank file (pain.002 or camt.054).')).toBeInTheDocument();

    const file = new File(['<Document/>'], 'camt054.xml', { type: 'application/xml' });
    await user.upload(within(form).getByLabelText('Bank return file'), file);
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    const done = await screen.findByRole('status');
    expect(done).toHaveTextContent('2 applied, 0 already applied, 0 not sent, 1 unknown.');
    const sent = requests.find((request) => request.method === 'POST')?.body as FormData;
    expect((sent.get('file') as File).name).toBe('camt054.xml');

    const first = screen.getByRole('listitem', { name: 'Return of Aurélie Martin' });
    expect(within(first).getByRole('link', { name: 'Aurélie Martin' })).toHaveAttribute(
      'href',
      '/subscriber/42',
    );
    expect(first.textContent?.replace(/\s/g, ' ')).toContain(
      'RUM RUM-42 · 25,00 € · Returned: AC04 (account closed)',
    );
    expect(within(first).getByText('Donation cancelled. Mandate suspended.')).toBeInTheDocument();
    const second = screen.getByRole('listitem', { name: 'Return of Jean Dupont' });
    expect(within(second).getByText('Receipt n° 57 should be cancelled.')).toBeInTheDocument();
    const unknown = screen.getByRole('listitem', { name: 'Return of OTHER-1' });
    expect(within(unknown).getByText('Unknown')).toBeInTheDocument();
    expect(within(unknown).getByText('Rejected: AM04 (insufficient funds)')).toBeInTheDocument();
  });

  it('explains a file the server refuses, and one that is not XML before sending it', async () => {
    signIn();
    const detail = 'The file is not a pain.002 or camt.054 message: its namespace is camt.053.001.08.';
    const requests = mockFetch({
      'GET /api/collections': () => jsonResponse([]),
      'POST /api/collections/returns': () =>
        problemResponse(400, 'direct_debit.invalid_return_file', { detail }),
    });
    const { user } = renderWithProviders(<CollectionsScreen />);
    await screen.findByText('No collection has been built yet.');
    const form = screen.getByRole('form', { name: 'Import returns' });
    const input = within(form).getByLabelText('Bank return file');

    // Past the input's `accept`, as a file chosen with "All files" is.
    await userEvent.setup({ applyAccept: false }).upload(input, new File(['a;b'], 'returns.csv'));
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    expect(within(form).getByText('The file must be the XML file of the bank.')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);

    await user.upload(input, new File(['<Document/>'], 'statement.xml', { type: 'application/xml' }));
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    const refused = await within(form).findByRole('alert');
    expect(refused).toHaveTextContent('The file was not imported');
    expect(refused).toHaveTextContent(detail);
  });
});
