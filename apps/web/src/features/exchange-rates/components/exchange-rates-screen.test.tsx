import type { ExchangeRate } from '@back-office/contract/exchange-rates';
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
import { ExchangeRatesScreen } from './exchange-rates-screen.tsx';

const stored: ExchangeRate[] = [
  { date: '2024-03-04', currency: 'CHF', rate: 0.9585 },
  { date: '2024-03-04', currency: 'IDR', rate: 17055.48 },
  { date: '2024-03-01', currency: 'CHF', rate: 0.9558 },
];

/** The rates list answers `rates` (filtered by currency as the server would); other routes as given. */
function rateRoutes(rates: ExchangeRate[], extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET /api/exchange-rates': (request) => {
      const currency = request.query.get('currency');
      const models = rates.filter((rate) => !currency || rate.currency === currency);
      return jsonResponse({ count: models.length, models });
    },
    ...extra,
  });
}

const lists = (requests: RecordedRequest[]) =>
  requests.filter((request) => request.method === 'GET').map((request) => Object.fromEntries(request.query));

/** The text of each body row's cells, spaces of every kind as plain spaces. */
function rowsOf(table: HTMLElement) {
  return [...table.querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((cell) => cell.textContent?.replace(/\s/g, ' ')),
  );
}

describe('ExchangeRatesScreen', () => {
  it('lists the rates newest first, the French way, and filters them by currency and days', async () => {
    signIn();
    const requests = rateRoutes(stored);
    const { user } = renderWithProviders(<ExchangeRatesScreen />);

    expect(screen.getByRole('heading', { name: 'Exchange rates', level: 1 })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Exchange rates' });
    await waitFor(() =>
      expect(rowsOf(table)).toEqual([
        ['04/03/2024', 'CHF', '0,9585'],
        ['04/03/2024', 'IDR', '17 055,48'],
        ['01/03/2024', 'CHF', '0,9558'],
      ]),
    );
    expect(screen.getByText('3 rates')).toBeInTheDocument();
    expect(lists(requests)).toEqual([{ listfrom: '1', listlength: '50' }]);

    const search = screen.getByRole('search', { name: 'Search exchange rates' });
    await user.type(within(search).getByLabelText('Currency'), 'chf');
    expect(within(search).getByLabelText('Currency')).toHaveValue('CHF');
    await user.type(within(search).getByRole('textbox', { name: 'From' }), '01/03/2024');
    await user.type(within(search).getByRole('textbox', { name: 'To' }), '04/03/2024');
    await user.click(within(search).getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(lists(requests).at(-1)).toEqual({
        currency: 'CHF',
        from: '2024-03-01',
        to: '2024-03-04',
        listfrom: '1',
        listlength: '50',
      }),
    );
    expect(await screen.findByText('2 rates')).toBeInTheDocument();

    await user.click(within(search).getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(lists(requests).at(-1)).toEqual({ listfrom: '1', listlength: '50' }));
    expect(within(search).getByLabelText('Currency')).toHaveValue('');
  });

  it('says when no rate matches', async () => {
    signIn();
    rateRoutes([]);
    renderWithProviders(<ExchangeRatesScreen />);
    expect(await screen.findByText('No exchange rates match the search criteria.')).toBeInTheDocument();
  });

  it('adds a rate typed the French way, and refreshes the list', async () => {
    signIn();
    const rates = [...stored];
    const requests = rateRoutes(rates, {
      'POST /api/exchange-rates': (request) => {
        const rate = request.body as ExchangeRate;
        rates.unshift(rate);
        return jsonResponse(rate, 201);
      },
    });
    const { user } = renderWithProviders(<ExchangeRatesScreen />);
    await screen.findByText('3 rates');

    const form = screen.getByRole('form', { name: 'Add a rate' });
    const date = within(form).getByRole('textbox', { name: 'Date' });
    expect((date as HTMLInputElement).value).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    await user.clear(date);
    await user.type(date, '05/03/2024');
    await user.type(within(form).getByRole('textbox', { name: 'Currency' }), 'usd');
    await user.type(within(form).getByRole('textbox', { name: 'Rate for 1 €' }), '1,0857');
    await user.click(within(form).getByRole('button', { name: 'Save rate' }));

    expect(await screen.findByText('1 EUR = 1,0857 USD on 05/03/2024 is saved.')).toBeInTheDocument();
    const posted = requests.find((request) => request.method === 'POST');
    expect(posted?.body).toEqual({ date: '2024-03-05', currency: 'USD', rate: 1.0857 });
    expect(await screen.findByText('4 rates')).toBeInTheDocument();
    // The fields keep what was typed, for the next currency of that day, and say nothing when left.
    expect(within(form).getByRole('textbox', { name: 'Currency' })).toHaveValue('USD');
    expect(within(form).getByRole('textbox', { name: 'Rate for 1 €' })).toHaveValue('1,0857');
    await user.click(within(form).getByRole('textbox', { name: 'Currency' }));
    await user.click(screen.getByRole('heading', { name: 'Rates' }));
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    expect(form.querySelector('[aria-invalid="true"]')).toBeNull();
    expect(date).toHaveValue('05/03/2024');
  });

  it('checks the form as the server would, and shows a refused rate under its field', async () => {
    signIn();
    const detail =
      'The rate of CHF on 2024-03-04 is already stored: 0.9585 CHF for 1 euro. A stored rate is not changed, since a receipt may have used it.';
    const requests = rateRoutes(stored, {
      'POST /api/exchange-rates': () =>
        problemResponse(409, 'exchange_rates.conflict', {
          detail,
          errors: [{ path: 'rate', message: detail }],
        }),
    });
    const { user } = renderWithProviders(<ExchangeRatesScreen />);
    await screen.findByText('3 rates');
    const form = screen.getByRole('form', { name: 'Add a rate' });
    const currency = within(form).getByRole('textbox', { name: 'Currency' });
    const rate = within(form).getByRole('textbox', { name: 'Rate for 1 €' });

    await user.type(currency, 'EUR');
    await user.type(rate, 'abc');
    await user.click(within(form).getByRole('button', { name: 'Save rate' }));
    expect(
      await within(form).findByText('A euro is always 1 euro: choose another currency.'),
    ).toBeInTheDocument();
    expect(within(form).getByText('The rate is a number, such as 0,9412.')).toBeInTheDocument();
    expect(within(form).getByText('Please complete all the information!')).toBeInTheDocument();

    await user.clear(currency);
    await user.type(currency, 'CHF');
    await user.clear(rate);
    await user.type(rate, '0,12345678');
    await user.click(within(form).getByRole('button', { name: 'Save rate' }));
    expect(await within(form).findByText('The rate can have at most 6 decimals.')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);

    const date = within(form).getByRole('textbox', { name: 'Date' });
    await user.clear(date);
    await user.type(date, '04/03/2024');
    await user.clear(rate);
    await user.type(rate, '0,96');
    await user.click(within(form).getByRole('button', { name: 'Save rate' }));
    expect(await within(form).findAllByText(detail)).not.toHaveLength(0);
    await waitFor(() => expect(rate).toHaveFocus());
    expect(rate).toHaveValue('0,96');
  });

  it('imports the ECB file and says how many rates were imported and skipped', async () => {
    signIn();
    const requests = rateRoutes(stored, {
      'POST /api/exchange-rates/import': () => jsonResponse({ imported: 19, skipped: 1234 }),
    });
    const { user } = renderWithProviders(<ExchangeRatesScreen />);
    await screen.findByText('3 rates');
    const form = screen.getByRole('form', { name: 'Import the ECB file' });

    await user.click(within(form).getByRole('button', { name: 'Import' }));
    expect(within(form).getByText('Choose the ECB file eurofxref-hist.csv.')).toBeInTheDocument();

    const file = new File(['Date,USD,\n2024-03-05,1.0857,\n'], 'eurofxref-hist.csv', { type: 'text/csv' });
    await user.upload(within(form).getByLabelText('ECB rates file'), file);
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    // What the import did shows below the form.
    const done = await screen.findByRole('status');
    expect(done.textContent?.replace(/\s/g, ' ')).toContain('19 rates imported, 1 234 skipped.');
    const sent = requests.find((request) => request.method === 'POST')?.body as FormData;
    expect((sent.get('file') as File).name).toBe('eurofxref-hist.csv');
    await waitFor(() => expect(lists(requests)).toHaveLength(2));
  });

  it('explains a file the server refuses, and a ZIP archive before sending it', async () => {
    signIn();
    const detail = 'The file has no Date column. Upload the ECB file eurofxref-hist.csv.';
    const requests = rateRoutes(stored, {
      'POST /api/exchange-rates/import': () => problemResponse(400, 'exchange_rates.bad_file', { detail }),
    });
    const { user } = renderWithProviders(<ExchangeRatesScreen />);
    await screen.findByText('3 rates');
    const form = screen.getByRole('form', { name: 'Import the ECB file' });
    const input = within(form).getByLabelText('ECB rates file');

    // Past the input's `accept`, as a file chosen with "All files" is.
    await userEvent
      .setup({ applyAccept: false })
      .upload(input, new File(['PK'], 'eurofxref-hist.zip', { type: 'application/zip' }));
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    expect(
      within(form).getByText('Open the ZIP archive first, and choose the eurofxref-hist.csv file it holds.'),
    ).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);

    await user.upload(input, new File(['Prénom,Nom\n'], 'members.csv', { type: 'text/csv' }));
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    const refused = await within(form).findByRole('alert');
    expect(refused).toHaveTextContent('The file was not imported');
    expect(refused).toHaveTextContent(detail);
  });
});
