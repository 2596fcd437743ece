import type { BankStatementEntry, StatementEntryStatus } from '@back-office/contract/bank-statements';
import type { SaleSummary } from '@back-office/contract/sales';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  jsonResponse,
  mockFetch,
  problemResponse,
  type RecordedRequest,
} from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { BankStatementsScreen } from './bank-statements-screen.tsx';

const unmatched: BankStatementEntry = {
  id: 5,
  entryRef: 'E-5',
  bookingDate: '2031-04-23',
  amount: 1234.5,
  currency: 'CHF',
  direction: 'credit',
  debtorName: 'Anne Dupont',
  debtorIban: 'CH9300762011623852957',
  reference: 'RF18539007547034',
  text: 'Facture avril',
  status: 'unmatched',
};

const assigned: BankStatementEntry = {
  ...unmatched,
  id: 6,
  entryRef: 'E-6',
  amount: 25,
  currency: 'EUR',
  status: 'assigned',
  saleId: 40,
  saleRef: 12,
  decidedBy: 'Ada Admin',
};

const sale: SaleSummary = {
  id: 40,
  subscriberId: 7,
  fullName: 'Mme Anne Dupont',
  total: 1234.5,
  currencyName: 'FRANC',
  currencySymbol: 'CHF',
  dateAdded: '2031-03-07T10:00:00.000Z',
  postcode: '1200',
  address: 'Rue du Rhône 1, Genève',
  ref: 12,
  invoiceIssued: true,
  status: 'active',
  creditNoteNumber: null,
  paymentStatus: 'unpaid',
  reminderLevel: 0,
  lastReminderOn: null,
};

/** Answers the list of each status from `lists`; other routes from `extra`. */
function entryRoutes(
  lists: () => Partial<Record<StatementEntryStatus, BankStatementEntry[]>>,
  extra: Parameters<typeof mockFetch>[0] = {},
): RecordedRequest[] {
  return mockFetch({
    'GET /api/bank-statements/entries': (request) => {
      const models = lists()[(request.query.get('status') ?? 'unmatched') as StatementEntryStatus] ?? [];
      return jsonResponse({ count: models.length, models });
    },
    ...extra,
  });
}

/** The text of each body row's cells, spaces of every kind as plain spaces. */
function rowsOf(table: HTMLElement) {
  return [...table.querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((cell) => cell.textContent?.replace(/\s/g, ' ')),
  );
}

const plain = (text: string) => text.replace(/\s+/g, ' ');

describe('BankStatementsScreen', { timeout: 20_000 }, () => {
  it('lists the review queue the French way, and the other statuses in their tabs', async () => {
    signIn({ role: 'Administrator' });
    const requests = entryRoutes(() => ({ unmatched: [unmatched], assigned: [assigned] }));
    const { user } = renderWithProviders(<BankStatementsScreen />);

    expect(screen.getByRole('heading', { name: 'Bank statements', level: 1 })).toBeInTheDocument();
    const queue = await screen.findByRole('table', { name: 'To review' });
    expect(rowsOf(queue)).toEqual([
      [
        '23/04/2031',
        '1 234,50 CHF',
        'Anne DupontCH9300762011623852957',
        'RF18539007547034',
        'Facture avril',
        'Pay an invoiceRecord as donationDismiss',
      ],
    ]);
    expect(screen.getByText('1 entry')).toBeInTheDocument();
    expect(requests[0]?.query.get('status')).toBe('unmatched');
    expect(requests[0]?.query.get('listfrom')).toBe('1');
    expect(requests[0]?.query.get('listlength')).toBe('50');

    await user.click(screen.getByRole('tab', { name: 'Assigned' }));
    const table = await screen.findByRole('table', { name: 'Assigned' });
    expect(rowsOf(table)[0]?.at(-1)).toBe('Payment of the sale #12 (Ada Admin)');
    await user.click(screen.getByRole('tab', { name: 'Dismissed' }));
    expect(await screen.findByText('No entry was dismissed yet.')).toBeInTheDocument();
  });

  it('imports a statement and shows the five counts', async () => {
    signIn({ role: 'Administrator' });
    const requests = entryRoutes(() => ({}), {
      'POST /api/bank-statements': () =>
        jsonResponse({ entries: 4, matched: 1, unmatched: 1, duplicates: 1, listed: 1 }),
    });
    const { user } = renderWithProviders(<BankStatementsScreen />);
    expect(await screen.findByText(/Nothing to review/)).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Import a statement' });

    await user.click(within(form).getByRole('button', { name: 'Import' }));
    expect(await within(form).findByText(/Choose the statement file/)).toBeInTheDocument();

    const file = new File(['<Document/>'], 'camt053.xml', { type: 'application/xml' });
    await user.upload(within(form).getByLabelText('Bank statement file'), file);
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    const result = await screen.findByRole('status');
    expect(within(result).getByTestId('import-entries')).toHaveTextContent('4');
    expect(within(result).getByTestId('import-matched')).toHaveTextContent('1');
    expect(within(result).getByTestId('import-unmatched')).toHaveTextContent('1');
    expect(within(result).getByTestId('import-duplicates')).toHaveTextContent('1');
    expect(within(result).getByTestId('import-listed')).toHaveTextContent('1');
    const sent = requests.find((request) => request.method === 'POST')?.body as FormData;
    expect((sent.get('file') as File).name).toBe('camt053.xml');
    expect(
      await screen.findByText(/The statement was imported: 4 entries read, 1 matched/, { normalizer: plain }),
    ).toBeInTheDocument();
  });

  it('refuses a file that is not XML or ZIP, and shows the server refusal', async () => {
    signIn({ role: 'Administrator' });
    entryRoutes(() => ({}), {
      'POST /api/bank-statements': () =>
        problemResponse(400, 'bank_statements.invalid_file', { detail: 'This is not a camt.053 file.' }),
    });
    const { user } = renderWithProviders(<BankStatementsScreen />);
    const form = screen.getByRole('form', { name: 'Import a statement' });
    const input = within(form).getByLabelText('Bank statement file');
    await userEvent.setup({ applyAccept: false }).upload(input, new File(['a;b'], 'statement.csv'));
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    expect(await within(form).findByText(/must be an XML file/)).toBeInTheDocument();

    await user.upload(input, new File(['<x/>'], 'statement.zip', { type: 'application/zip' }));
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    expect(await within(form).findByText('This is not a camt.053 file.')).toBeInTheDocument();
  });

  it('pays an invoice found by its reference, with the server refusal under the field', async () => {
    signIn({ role: 'Administrator' });
    let decided = false;
    let attempts = 0;
    const requests = entryRoutes(() => (decided ? { assigned: [assigned] } : { unmatched: [unmatched] }), {
      'GET /api/sales': (request) => jsonResponse(request.query.get('salesref') === '12' ? [sale] : []),
      'POST /api/bank-statements/entries/5/assign': () => {
        attempts += 1;
        if (attempts === 1) {
          return problemResponse(409, 'bank_statements.cannot_assign', {
            errors: [{ path: 'saleId', message: 'The sale is in CHF, the entry in EUR.' }],
          });
        }
        decided = true;
        return jsonResponse({ ...unmatched, status: 'assigned', saleId: 40, saleRef: 12 });
      },
    });
    const { user } = renderWithProviders(<BankStatementsScreen />);
    const queue = await screen.findByRole('table', { name: 'To review' });
    await user.click(within(queue).getByRole('button', { name: 'Pay an invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay an invoice' });

    await user.click(within(dialog).getByRole('button', { name: 'Pay an invoice' }));
    expect(await within(dialog).findByText('Give the reference of the sale.')).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: /Sale reference/ }), '99');
    await user.click(within(dialog).getByRole('button', { name: 'Pay an invoice' }));
    expect(await within(dialog).findAllByText('No sale has this reference.')).not.toHaveLength(0);

    const field = within(dialog).getByRole('textbox', { name: /Sale reference/ });
    await user.clear(field);
    await user.type(field, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Pay an invoice' }));
    expect(await within(dialog).findAllByText('The sale is in CHF, the entry in EUR.')).not.toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Pay an invoice' }));
    expect(
      await screen.findByText('The entry of 1 234,50 CHF was recorded as a payment of the sale #12!', {
        normalizer: plain,
      }),
    ).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'POST').at(-1)?.body).toEqual({
      as: 'payment',
      saleId: 40,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(/Nothing to review/)).toBeInTheDocument();
  });

  it('records a donation of the IBAN owner, or says why it cannot', async () => {
    signIn({ role: 'Administrator' });
    const requests = entryRoutes(() => ({ unmatched: [unmatched] }), {
      'POST /api/bank-statements/entries/5/assign': () =>
        problemResponse(409, 'bank_statements.cannot_assign', {
          errors: [
            { path: 'subscriberId', message: 'No subscriber has the IBAN CH93 0076 2011 6238 5295 7.' },
          ],
        }),
    });
    const { user } = renderWithProviders(<BankStatementsScreen />);
    const queue = await screen.findByRole('table', { name: 'To review' });
    await user.click(within(queue).getByRole('button', { name: 'Record as donation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record as donation' });
    expect(within(dialog).getByText('Leave empty for the subscriber whose IBAN it is.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Record as donation' }));
    expect(
      await within(dialog).findAllByText('No subscriber has the IBAN CH93 0076 2011 6238 5295 7.'),
    ).not.toHaveLength(0);
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({ as: 'donation' });
  });

  it('dismisses an entry with its reason, and says when someone decided it first', async () => {
    signIn({ role: 'Administrator' });
    let attempts = 0;
    const requests = entryRoutes(() => ({ unmatched: [unmatched] }), {
      'POST /api/bank-statements/entries/5/assign': () => {
        attempts += 1;
        return attempts === 1
          ? jsonResponse({ ...unmatched, status: 'dismissed', dismissReason: 'Remboursement fournisseur' })
          : problemResponse(409, 'bank_statements.decided', { detail: 'The entry was dismissed already.' });
      },
    });
    const { user } = renderWithProviders(<BankStatementsScreen />);
    const queue = await screen.findByRole('table', { name: 'To review' });
    await user.click(within(queue).getByRole('button', { name: 'Dismiss' }));
    let dialog = await screen.findByRole('dialog', { name: 'Dismiss' });
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    expect(await within(dialog).findByText('Give the reason.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Reason/), 'Remboursement fournisseur');
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    expect(
      await screen.findByText('The entry of 1 234,50 CHF was dismissed!', { normalizer: plain }),
    ).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      dismiss: 'Remboursement fournisseur',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(queue).getByRole('button', { name: 'Dismiss' }));
    dialog = await screen.findByRole('dialog', { name: 'Dismiss' });
    await user.type(within(dialog).getByLabelText(/Reason/), 'Encore');
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByText(/The entry was dismissed already\./)).toBeInTheDocument();
  });
});
