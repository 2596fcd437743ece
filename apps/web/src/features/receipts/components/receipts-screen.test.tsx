import type { RegisteredReceipt } from '@back-office/contract/receipts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { recordSavedFiles } from '../../../testing/exports.ts';
import {
  jsonResponse,
  mockFetch,
  problemResponse,
  type RecordedRequest,
} from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { ReceiptsScreen } from './receipts-screen.tsx';

const HASH_A = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const HASH_B = 'b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1';
const HASH_C = 'c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2';

/** Receipt n° 11, cancelled and replaced by n° 12. */
const replaced: RegisteredReceipt = {
  number: 11,
  issuedAt: '2026-03-06T11:00:00.000Z',
  subscriberId: 7,
  subscriberName: 'M. Jean Dupont',
  amount: 125.5,
  currency: '€',
  status: 'cancelled',
  cancelReason: 'Wrong amount',
  replacedBy: 12,
  hash: HASH_A,
};

/** Receipt n° 12, issued to replace n° 11. */
const replacement: RegisteredReceipt = {
  number: 12,
  issuedAt: '2026-03-07T11:00:00.000Z',
  subscriberId: 7,
  subscriberName: 'M. Jean Dupont',
  amount: 125,
  currency: '€',
  status: 'issued',
  replaces: 11,
  hash: HASH_B,
};

/** Receipt n° 13, issued in francs. */
const swiss: RegisteredReceipt = {
  number: 13,
  issuedAt: '2026-03-08T11:00:00.000Z',
  subscriberId: 9,
  subscriberName: 'Mme Zoé Martin',
  amount: 1300,
  currency: 'CHF',
  status: 'issued',
  hash: HASH_C,
};

/** The register's pages and every call made; `routes` adds or overrides answers. */
function receiptRoutes(
  answer: (query: URLSearchParams) => RegisteredReceipt[],
  routes: Record<string, (request: RecordedRequest) => Response> = {},
) {
  const requests = mockFetch({
    'GET /api/receipts': (request) => {
      const models = answer(request.query);
      return jsonResponse({ count: models.length, models });
    },
    ...routes,
  });
  const searches = () =>
    requests
      .filter((request) => request.method === 'GET' && request.path === '/api/receipts')
      .map((request) => Object.fromEntries(request.query));
  return { requests, searches };
}

async function rowOf(number: number) {
  const table = await screen.findByRole('table', { name: 'Receipts' });
  const cell = await within(table).findByText(`n° ${number}`);
  const row = cell.closest('tr');
  if (!row) throw new Error(`No row for receipt n° ${number}`);
  return row;
}

/** Intl's French format groups thousands with a narrow no-break space. */
const plainSpaces = (text: string | null | undefined) => text?.replace(/\s/g, ' ');

describe('Receipts screen', () => {
  it('lists the register by number: date, donor, amount, status, replacements and hash', async () => {
    signIn();
    const { searches } = receiptRoutes(() => [replaced, replacement, swiss]);
    renderWithProviders(<ReceiptsScreen />);

    expect(screen.getByRole('heading', { name: 'Receipts', level: 1 })).toBeInTheDocument();
    const first = await rowOf(11);
    expect(screen.getByText('3 receipts')).toBeInTheDocument();
    expect(searches()).toEqual([{ listfrom: '1', listlength: '50' }]);

    expect(first).toHaveTextContent('06/03/2026');
    expect(plainSpaces(first.textContent)).toContain('125,50 €');
    expect(within(first).getByText('Cancelled')).toBeInTheDocument();
    expect(first).toHaveTextContent('replaced by n° 12 · Wrong amount');
    expect(within(first).getByRole('link', { name: 'M. Jean Dupont' })).toHaveAttribute(
      'href',
      '/subscriber/7',
    );
    expect(within(first).getByText('a1b2c3d4e5f6')).toHaveAttribute('title', HASH_A);

    const second = await rowOf(12);
    expect(second).toHaveTextContent('07/03/2026');
    expect(within(second).getByText('Issued')).toBeInTheDocument();
    expect(second).toHaveTextContent('replaces n° 11');
    expect(within(second).getByText('b2c3d4e5f607')).toHaveAttribute('title', HASH_B);

    const third = await rowOf(13);
    expect(plainSpaces(third.textContent)).toContain('1 300,00 CHF');
    expect(third).toHaveTextContent('—');

    // Administrators change issued receipts only; everyone downloads any of them.
    expect(within(first).getByRole('button', { name: 'PDF of receipt n° 11' })).toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: /Cancel receipt/ })).not.toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: /Replace receipt/ })).not.toBeInTheDocument();
    expect(within(second).getByRole('button', { name: 'Cancel receipt n° 12…' })).toHaveTextContent(
      'Cancel…',
    );
    expect(within(second).getByRole('button', { name: 'Replace receipt n° 12…' })).toHaveTextContent(
      'Replace…',
    );
    // The annual statement of the receipts issued, for Administrators.
    expect(screen.getByRole('link', { name: 'Annual statement' })).toHaveAttribute(
      'href',
      '/receipts/statement',
    );
  });

  it('searches by year and status, refuses a year out of range and clears', async () => {
    signIn();
    const { searches } = receiptRoutes((query) => (query.get('status') === 'cancelled' ? [] : [swiss]));
    const { user } = renderWithProviders(<ReceiptsScreen />);
    await rowOf(13);

    await user.type(screen.getByLabelText('Year'), '20{Enter}');
    expect(await screen.findByText('The year must be between 1900 and 2999.')).toBeInTheDocument();
    expect(searches()).toHaveLength(1);

    await user.clear(screen.getByLabelText('Year'));
    await user.type(screen.getByLabelText('Year'), '2025');
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['All', 'Issued', 'Cancelled']);
    await user.click(screen.getByRole('option', { name: 'Cancelled' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));

    expect(await screen.findByText('No receipts match the search criteria.')).toBeInTheDocument();
    expect(screen.getByText('0 receipts')).toBeInTheDocument();
    expect(screen.queryByText('The year must be between 1900 and 2999.')).not.toBeInTheDocument();
    expect(searches().at(-1)).toEqual({ year: '2025', status: 'cancelled', listfrom: '1', listlength: '50' });

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await rowOf(13);
    expect(screen.getByLabelText('Year')).toHaveValue('');
    expect(searches().at(-1)).toEqual({ listfrom: '1', listlength: '50' });
  });

  it('says when no receipt was issued yet', async () => {
    signIn();
    receiptRoutes(() => []);
    renderWithProviders(<ReceiptsScreen />);
    expect(await screen.findByText('No receipts have been issued yet.')).toBeInTheDocument();
  });

  it('cancels an issued receipt with a reason, and shows why the server refuses a second cancel', async () => {
    signIn();
    let cancelled = false;
    const { requests } = receiptRoutes(
      () => [
        replaced,
        replacement,
        cancelled ? { ...swiss, status: 'cancelled', cancelReason: 'Gift refunded' } : swiss,
      ],
      {
        'POST /api/receipts/13/cancel': () => {
          cancelled = true;
          return jsonResponse({ ...swiss, status: 'cancelled', cancelReason: 'Gift refunded' });
        },
        'POST /api/receipts/12/cancel': () =>
          problemResponse(409, 'receipts.cancelled', {
            detail: 'Receipt n° 12 was cancelled on 2026-03-09 by Ada Admin: it stays cancelled.',
          }),
      },
    );
    const { user } = renderWithProviders(<ReceiptsScreen />);

    await user.click(within(await rowOf(13)).getByRole('button', { name: 'Cancel receipt n° 13…' }));
    let dialog = await screen.findByRole('dialog', { name: 'Cancel receipt n° 13' });
    expect(dialog).toHaveTextContent(
      'Receipt n° 13 will be printed ANNULÉ with this reason; its gifts can be receipted again.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the receipt' }));
    expect(await within(dialog).findByText('Say why the receipt is cancelled.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Reason/), 'no');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the receipt' }));
    expect(await within(dialog).findByText('Say why the receipt is cancelled.')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);

    await user.clear(within(dialog).getByLabelText(/Reason/));
    await user.type(within(dialog).getByLabelText(/Reason/), '  Gift refunded ');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the receipt' }));
    expect(await screen.findByText('Receipt n° 13 cancelled.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests.find((request) => request.path === '/api/receipts/13/cancel')?.body).toEqual({
      reason: 'Gift refunded',
    });
    const row = await rowOf(13);
    await waitFor(() => expect(within(row).getByText('Cancelled')).toBeInTheDocument());
    expect(within(row).queryByRole('button', { name: /Cancel receipt/ })).not.toBeInTheDocument();

    await user.click(within(await rowOf(12)).getByRole('button', { name: 'Cancel receipt n° 12…' }));
    dialog = await screen.findByRole('dialog', { name: 'Cancel receipt n° 12' });
    await user.type(within(dialog).getByLabelText(/Reason/), 'Typed twice');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the receipt' }));
    const refusal = await within(dialog).findByRole('alert', { name: 'Receipt n° 12 was not changed' });
    expect(refusal).toHaveTextContent(
      'Receipt n° 12 was cancelled on 2026-03-09 by Ada Admin: it stays cancelled.',
    );
    expect(within(dialog).getByRole('button', { name: 'Cancel the receipt' })).toBeDisabled();
    const closeButtons = within(dialog).getAllByRole('button', { name: 'Close' });
    await user.click(closeButtons[closeButtons.length - 1] ?? dialog);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('names the reason the server refused under its field', async () => {
    signIn();
    receiptRoutes(() => [swiss], {
      'POST /api/receipts/13/cancel': () =>
        problemResponse(400, 'validation', {
          errors: [{ path: 'reason', message: 'The reason must have at most 500 characters.' }],
        }),
    });
    const { user } = renderWithProviders(<ReceiptsScreen />);
    await user.click(within(await rowOf(13)).getByRole('button', { name: 'Cancel receipt n° 13…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel receipt n° 13' });
    await user.type(within(dialog).getByLabelText(/Reason/), 'Gift refunded');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the receipt' }));
    expect(
      await within(dialog).findByText('Reason: The reason must have at most 500 characters.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Cancel receipt n° 13' })).toBeInTheDocument();
  });

  it('replaces an issued receipt by the next number', async () => {
    signIn();
    let replacedNow = false;
    const next: RegisteredReceipt = { ...swiss, number: 14, replaces: 13, hash: HASH_A };
    const { requests } = receiptRoutes(
      () =>
        replacedNow
          ? [{ ...swiss, status: 'cancelled', cancelReason: 'Wrong address', replacedBy: 14 }, next]
          : [swiss],
      {
        'POST /api/receipts/13/replace': () => {
          replacedNow = true;
          return jsonResponse(next, 201);
        },
      },
    );
    const { user } = renderWithProviders(<ReceiptsScreen />);

    await user.click(within(await rowOf(13)).getByRole('button', { name: 'Replace receipt n° 13…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replace receipt n° 13' });
    expect(dialog).toHaveTextContent(
      'Receipt n° 13 is cancelled and a receipt with the next number will be issued for the same gifts.',
    );
    await user.type(within(dialog).getByLabelText(/Reason/), 'Wrong address');
    await user.click(within(dialog).getByRole('button', { name: 'Replace the receipt' }));
    expect(await screen.findByText('Receipt n° 14 issued to replace n° 13.')).toBeInTheDocument();
    expect(requests.find((request) => request.path === '/api/receipts/13/replace')?.body).toEqual({
      reason: 'Wrong address',
    });
    const row = await rowOf(14);
    expect(row).toHaveTextContent('replaces n° 13');
    expect(await rowOf(13)).toHaveTextContent('replaced by n° 14');
    expect(screen.getByText('2 receipts')).toBeInTheDocument();
  });

  it('verifies the register: whole, or where it was altered', async () => {
    signIn({ role: 'User' });
    let whole = true;
    receiptRoutes(() => [swiss], {
      'GET /api/receipts/verify': () =>
        jsonResponse(
          whole
            ? { ok: true, checked: 1234 }
            : {
                ok: false,
                checked: 4,
                firstBreak: {
                  number: 5,
                  reason: 'Its hash does not match its content and the receipt before it: it was altered.',
                },
              },
        ),
    });
    const { user } = renderWithProviders(<ReceiptsScreen />);
    await rowOf(13);

    await user.click(screen.getByRole('button', { name: 'Verify the register' }));
    const alert = await screen.findByText(/The register is whole/);
    expect(plainSpaces(alert.textContent)).toBe(
      'The register is whole: 1 234 receipts checked, every hash matches.',
    );

    whole = false;
    await user.click(screen.getByRole('button', { name: 'Verify the register' }));
    expect(
      await screen.findByText(
        'The register was altered at receipt n° 5: Its hash does not match its content and the receipt before it: it was altered.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/The register is whole/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/The register was altered/)).not.toBeInTheDocument();
  });

  it('offers a User the PDFs only, and saves a receipt and the register as files', async () => {
    signIn({ role: 'User' });
    const savedNames = recordSavedFiles();
    const { requests } = receiptRoutes(() => [replacement, swiss], {
      'GET /api/receipts/13/pdf': () =>
        new Response('%PDF', {
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': 'attachment; filename="receipt-13.pdf"',
          },
        }),
      'GET /api/receipts/export': () =>
        new Response('number;issuedAt', {
          headers: {
            'Content-Type': 'text/csv',
            'Content-Disposition': 'attachment; filename="receipts-register.csv"',
          },
        }),
    });
    const { user } = renderWithProviders(<ReceiptsScreen />);
    const row = await rowOf(13);
    expect(screen.queryByRole('button', { name: /Cancel receipt/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Replace receipt/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Annual statement' })).not.toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'PDF of receipt n° 13' }));
    await waitFor(() => expect(savedNames).toEqual(['receipt-13.pdf']));

    await user.type(screen.getByLabelText('Year'), '2026{Enter}');
    await waitFor(() => expect(requests.at(-1)?.query.get('year')).toBe('2026'));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Export the register',
      'Excel (France): semicolons, decimal comma',
      'Standard CSV: commas, decimal point',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Excel (France): semicolons, decimal comma' }));
    await user.click(screen.getByRole('menuitem', { name: 'Export the register' }));
    await waitFor(() => expect(savedNames).toEqual(['receipt-13.pdf', 'receipts-register.csv']));
    const exported = requests.find((request) => request.path === '/api/receipts/export');
    expect(exported && Object.fromEntries(exported.query)).toEqual({ year: '2026', dialect: 'excel-fr' });
  });

  it('says so when the register cannot be read', async () => {
    signIn();
    mockFetch({ 'GET /api/receipts': () => problemResponse(500, 'internal') });
    renderWithProviders(<ReceiptsScreen />);
    // A server error is tried once more before the toast (lib/query-client.ts).
    expect(
      await screen.findByText(
        'Houston - there was a problem getting the receipts. Please try again or contact your system administrator.',
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
  });
});
