import type { ReceiptStatement } from '@back-office/contract/receipts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { organisationYear } from '../../../lib/calendar.ts';
import { recordSavedFiles } from '../../../testing/exports.ts';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { ReceiptStatementScreen } from './receipt-statement-screen.tsx';

const lastYear = organisationYear() - 1; // the organisation's year, not the browser's

function statementOf(year: number, count: number, amount: number): ReceiptStatement {
  return {
    year,
    receiptCount: count,
    totalAmount: amount,
    currency: 'EUR',
    byType: count > 0 ? [{ type: '200', count, amount }] : [],
  };
}

/** Intl's French format groups thousands with a narrow no-break space. */
const plainSpaces = (text: string | null | undefined) => text?.replace(/\s/g, ' ');

function download(type: string, filename: string) {
  return new Response('file', {
    headers: { 'Content-Type': type, 'Content-Disposition': `attachment; filename="${filename}"` },
  });
}

describe('Annual statement of receipts screen', () => {
  it('shows last year’s figures in French format, then the year chosen, and downloads the PDF and CSV', async () => {
    signIn();
    const savedNames = recordSavedFiles();
    const requests = mockFetch({
      'GET /api/receipts/annual-statement': (request) => {
        const year = Number(request.query.get('year'));
        return jsonResponse(year === lastYear ? statementOf(year, 1234, 98765.4) : statementOf(year, 0, 0));
      },
      'GET /api/receipts/annual-statement/pdf': (request) =>
        download('application/pdf', `receipts-annual-statement-${request.query.get('year')}.pdf`),
      'GET /api/receipts/annual-statement/export': (request) =>
        download('text/csv', `receipts-annual-statement-${request.query.get('year')}.csv`),
    });
    const { user } = renderWithProviders(<ReceiptStatementScreen />);

    expect(
      screen.getByRole('heading', { name: 'Annual statement of receipts', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Year' })).toHaveValue(String(lastYear));
    expect(
      await screen.findByRole('heading', { name: `Receipts issued in ${lastYear}` }),
    ).toBeInTheDocument();
    expect(plainSpaces(screen.getByText('Receipts issued').parentElement?.textContent)).toBe(
      'Receipts issued1 234',
    );
    expect(plainSpaces(screen.getByText('Total of the gifts').parentElement?.textContent)).toBe(
      'Total of the gifts98 765,40 €',
    );
    const table = screen.getByRole('table', { name: 'By article of the tax code' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => plainSpaces(row.textContent))).toEqual([
      'Article of the tax codeReceiptsAmount',
      'Article 200 — individual donors1 23498 765,40 €',
      'Total1 23498 765,40 €',
    ]);
    expect(screen.getByRole('link', { name: 'Back to Receipts' })).toHaveAttribute('href', '/receipts');

    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(savedNames).toEqual([`receipts-annual-statement-${lastYear}.pdf`]));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Export the statement' }));
    await waitFor(() =>
      expect(savedNames).toEqual([
        `receipts-annual-statement-${lastYear}.pdf`,
        `receipts-annual-statement-${lastYear}.csv`,
      ]),
    );
    const exported = requests.find((request) => request.path === '/api/receipts/annual-statement/export');
    expect(Object.fromEntries(exported?.query ?? [])).toEqual({ year: String(lastYear), dialect: 'rfc4180' });

    // With the keyboard: the year list opens on the arrow key; the year before is the next option.
    const year = screen.getByRole('combobox', { name: 'Year' });
    year.focus();
    await user.keyboard('{ArrowDown}');
    await screen.findByRole('option', { name: String(lastYear - 1) });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(
      await screen.findByRole('heading', { name: `Receipts issued in ${lastYear - 1}` }),
    ).toBeInTheDocument();
    expect(screen.getByText(`No tax receipts were issued in ${lastYear - 1}.`)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(
      requests
        .filter((request) => request.path === '/api/receipts/annual-statement')
        .map((request) => request.query.get('year')),
    ).toEqual([String(lastYear), String(lastYear - 1)]);
  });

  it('says why a statement cannot be made when the server explains it (a missing exchange rate)', async () => {
    signIn();
    mockFetch({
      'GET /api/receipts/annual-statement': () =>
        problemResponse(409, 'exchange_rates.missing', {
          detail: 'No exchange rate for CHF on 2025-01-06 or the 7 days before: add it under Exchange rates.',
        }),
    });
    renderWithProviders(<ReceiptStatementScreen />);
    expect(await screen.findByText(`The statement of ${lastYear} could not be made`)).toBeInTheDocument();
    expect(
      screen.getByText(
        'No exchange rate for CHF on 2025-01-06 or the 7 days before: add it under Exchange rates.',
      ),
    ).toBeInTheDocument();
  });
});
