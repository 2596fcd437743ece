import type { SaleSummary } from '@back-office/contract/sales';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  emptyResponse,
  jsonResponse,
  mockFetch,
  problemResponse,
  type RecordedRequest,
} from '../../../testing/fetch-mock.ts';
import { signIn } from '../../../testing/session.ts';
import { renderSalesRoutes } from '../testing/render-sales-routes.tsx';

const products = [
  {
    id: 1,
    name: 'Agenda',
    euroPrice: 12.5,
    swissPrice: 14,
    active: true,
    currentStock: 10,
    minStockAlert: 1,
    version: 1,
  },
  {
    id: 2,
    name: 'Badge',
    euroPrice: 1,
    swissPrice: 1.2,
    active: false,
    currentStock: 0,
    minStockAlert: 0,
    version: 1,
  },
];

const sale: SaleSummary = {
  id: 40,
  subscriberId: 7,
  fullName: 'Mme Anne Dupont',
  total: 1234.5,
  currencyName: 'EURO',
  currencySymbol: '€',
  dateAdded: '2025-03-07T10:00:00.000Z',
  postcode: '69001',
  address: '1 rue de la Paix, Lyon',
  ref: 12,
  invoiceIssued: false,
  status: 'active',
  creditNoteNumber: null,
  paymentStatus: null,
  reminderLevel: 0,
  lastReminderOn: null,
};

/** Every GET /api/sales is answered by `answer`; the query strings are recorded. */
function salesRoutes(
  answer: (query: URLSearchParams) => SaleSummary[],
  extra: Parameters<typeof mockFetch>[0] = {},
) {
  const queries: URLSearchParams[] = [];
  const requests = mockFetch({
    'GET /api/products': () => jsonResponse(products),
    'GET /api/sales': () => jsonResponse(answer(queries[queries.length - 1] ?? new URLSearchParams())),
    ...extra,
  });
  const originalFetch = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/sales' && (init?.method ?? 'GET') === 'GET') queries.push(url.searchParams);
    return originalFetch(input, init);
  }) as typeof fetch;
  return { requests, queries };
}

function salesCalls(requests: RecordedRequest[]) {
  return requests.filter((request) => request.method === 'GET' && request.path === '/api/sales');
}

describe('Sales list without a subscriber', { timeout: 20_000 }, () => {
  it('asks for criteria and searches nothing until one is given', async () => {
    signIn();
    const { requests } = salesRoutes(() => []);
    const { user } = renderSalesRoutes('/sales');

    expect(await screen.findByRole('heading', { name: 'Sales' })).toBeInTheDocument();
    expect(screen.getByText('Please enter some search criteria.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Email Subscribers...' })).toBeDisabled();
    expect(screen.queryByRole('link', { name: 'Add New Sale' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show or hide the search filters' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    for (const label of ['Last Name', 'Postcode', 'Added Before', 'Added After', 'Sales Reference']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }

    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByText('Please enter some search criteria.')).toBeInTheDocument();
    expect(salesCalls(requests)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Export' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Export Sales Totals',
      'Export Itemised Sales',
      'Export Sales',
      'Excel (France): semicolons, decimal comma',
      'Standard CSV: commas, decimal point',
    ]);
  });

  it('runs the search written in the address, read with the query names of §7', async () => {
    signIn();
    const { queries } = salesRoutes(() => []);
    renderSalesRoutes('/sales?name=Dupont&greaterThan=10.5&addedafter=not-a-date');

    expect(await screen.findByText('No sales match the search criteria.')).toBeInTheDocument();
    expect(screen.getByLabelText('Last Name')).toHaveValue('Dupont');
    const query = queries[0];
    expect(query?.get('name')).toBe('Dupont');
    expect(query?.get('greaterThan')).toBe('10.5');
    expect(query?.get('addedafter')).toBe('');
  });

  it('searches on Enter with the query names of §7 and says when nothing matches', async () => {
    signIn();
    const { queries } = salesRoutes(() => []);
    const { user } = renderSalesRoutes('/sales');
    await screen.findByRole('heading', { name: 'Sales' });

    await user.click(screen.getByRole('combobox', { name: 'Product' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['** Optional **', 'Agenda', 'Badge']);
    await user.click(screen.getByRole('option', { name: 'Agenda' }));
    await user.type(screen.getByLabelText('Total greater than'), '10,5');
    await user.type(screen.getByLabelText('Last Name'), 'Dupont{Enter}');

    expect(await screen.findByText('No sales match the search criteria.')).toBeInTheDocument();
    const query = queries[0];
    expect(query && Object.fromEntries(query)).toEqual({
      id: '-1',
      salesref: '',
      name: 'Dupont',
      zip: '',
      addedafter: '',
      addedbefore: '',
      greaterThan: '10.5',
      lessThan: '',
      listfrom: '1',
      listlength: '50',
      productid: '1',
    });
  });

  it('shows each sale with #ref, the French amount with its symbol and the date, and deletes in two steps', async () => {
    signIn();
    const { requests } = salesRoutes(() => [sale], { 'DELETE /api/sales/40': () => emptyResponse(204) });
    const { user } = renderSalesRoutes('/sales');
    await screen.findByRole('heading', { name: 'Sales' });
    await user.type(screen.getByLabelText('Sales Reference'), '12{Enter}');

    const table = await screen.findByRole('table', { name: 'Sales' });
    const row = within(table)
      .getAllByRole('row')
      .find((candidate) => within(candidate).queryByText('#12'));
    if (!row) throw new Error('No row for sale #12');
    expect(within(row).getByRole('link', { name: 'Mme Anne Dupont' })).toHaveAttribute(
      'href',
      '/subscriber/7',
    );
    expect(row).toHaveTextContent('1 rue de la Paix, Lyon');
    expect(row).toHaveTextContent('1 234,50 (€)');
    expect(row).toHaveTextContent('2025-03-07');
    expect(within(row).getByRole('button', { name: 'Invoice #12' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Email Subscribers...' })).toBeEnabled();

    await user.click(within(row).getByRole('button', { name: 'Remove' }));
    await user.click(within(row).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(
      await screen.findByText("Sale for '1 234,50 (€)' was deleted successfully!", {
        normalizer: (text) => text.replace(/\s+/g, ' '),
      }),
    ).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'DELETE' && request.path === '/api/sales/40')).toBe(
      true,
    );
  });
});

describe('Sales list: invoiced and cancelled sales', { timeout: 20_000 }, () => {
  async function rowOf(user: ReturnType<typeof renderSalesRoutes>['user'], ref: string) {
    await screen.findByRole('heading', { name: 'Sales' });
    await user.type(screen.getByLabelText('Sales Reference'), `${ref}{Enter}`);
    const table = await screen.findByRole('table', { name: 'Sales' });
    const row = within(table)
      .getAllByRole('row')
      .find((candidate) => within(candidate).queryByText(new RegExp(`^#${ref}`)));
    if (!row) throw new Error(`No row for sale #${ref}`);
    return row;
  }

  it('cancels an invoiced sale with a reason, and says why its Remove cannot delete it', async () => {
    signIn();
    let cancelled = false;
    const { requests } = salesRoutes(
      () => [
        cancelled
          ? { ...sale, invoiceIssued: true, status: 'cancelled', creditNoteNumber: 3 }
          : { ...sale, invoiceIssued: true },
      ],
      {
        'DELETE /api/sales/40': () => problemResponse(409, 'sales.invoice_issued'),
        'POST /api/sales/40/cancel': () => {
          cancelled = true;
          return jsonResponse(
            { creditNoteNumber: 3, saleId: 40, amount: 1234.5, issuedAt: '2025-03-08T10:00:00.000Z' },
            201,
          );
        },
      },
    );
    const { user } = renderSalesRoutes('/sales');
    const row = await rowOf(user, '12');

    await user.click(within(row).getByRole('button', { name: 'Remove' }));
    await user.click(within(row).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(
      await screen.findByText(/Its invoice was issued: cancel the sale with a credit note instead\./),
    ).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Cancel sale' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel sale' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the sale' }));
    expect(await within(dialog).findByText('Give the reason for the cancellation.')).toBeInTheDocument();
    expect(requests.some((request) => request.path === '/api/sales/40/cancel')).toBe(false);
    await user.type(within(dialog).getByLabelText(/Reason/), 'Commande en double');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the sale' }));
    expect(await screen.findByText('Sale #12 was cancelled by the credit note n° 3!')).toBeInTheDocument();
    expect(requests.find((request) => request.path === '/api/sales/40/cancel')?.body).toEqual({
      reason: 'Commande en double',
    });
    const table = await screen.findByRole('table', { name: 'Sales' });
    expect(await within(table).findByRole('button', { name: 'Credit note n° 3' })).toBeInTheDocument();
    expect(within(table).getByText('#12 (cancelled)')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Cancel sale' })).not.toBeInTheDocument();
  });

  it('offers no Cancel for a sale whose invoice was never issued', async () => {
    signIn();
    salesRoutes(() => [sale]);
    const { user } = renderSalesRoutes('/sales');
    const row = await rowOf(user, '12');
    expect(within(row).queryByRole('button', { name: 'Cancel sale' })).not.toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Remove' })).toBeInTheDocument();
  });
});

describe('Sales list filters kept in local storage', { timeout: 20_000 }, () => {
  it('restores the stored filters and runs their search when the screen opens', async () => {
    signIn();
    localStorage.setItem(
      'sales.search-filters',
      JSON.stringify({
        name: 'Dupont',
        postCode: '',
        addedBefore: '',
        addedAfter: '2025-01-01',
        amountMin: '10',
        amountMax: '',
        salesRef: '',
        product: '',
      }),
    );
    const { queries } = salesRoutes(() => [sale]);
    renderSalesRoutes('/sales');
    expect(await screen.findByRole('table', { name: 'Sales' })).toBeInTheDocument();
    expect(screen.getByLabelText('Last Name')).toHaveValue('Dupont');
    expect(screen.getByLabelText('Total greater than')).toHaveValue('10,00');
    expect(queries[0]?.get('name')).toBe('Dupont');
    expect(queries[0]?.get('addedafter')).toBe('2025-01-01');
    expect(queries[0]?.get('greaterThan')).toBe('10');
  });

  it('Clear empties the fields and the stored filters', async () => {
    signIn();
    salesRoutes(() => []);
    const { user } = renderSalesRoutes('/sales');
    await screen.findByRole('heading', { name: 'Sales' });
    await user.type(screen.getByLabelText('Postcode'), '75{Enter}');
    await screen.findByText('No sales match the search criteria.');
    expect(JSON.parse(localStorage.getItem('sales.search-filters') ?? '{}')).toMatchObject({
      postCode: '75',
    });
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByLabelText('Postcode')).toHaveValue('');
    expect(localStorage.getItem('sales.search-filters')).toBeNull();
    expect(screen.getByText('Please enter some search criteria.')).toBeInTheDocument();
  });
});

describe('Sales list of one subscriber', { timeout: 20_000 }, () => {
  it('loads at once, links to the subscriber and says when there is no sale yet', async () => {
    signIn();
    const { queries } = salesRoutes(() => []);
    const { user } = renderSalesRoutes('/sales?subid=7&fn=Anne&ln=Dupont&sy=%E2%82%AC');

    expect(await screen.findByRole('heading', { name: 'Sales for Anne Dupont' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Anne Dupont' })).toHaveAttribute('href', '/subscriber/7');
    expect(await screen.findByText('No sales for this subscriber yet.')).toBeInTheDocument();
    expect(queries[0]?.get('id')).toBe('7');
    expect(screen.getByRole('link', { name: 'Add New Sale' })).toHaveAttribute('href', '/newsale/7');
    expect(screen.queryByRole('button', { name: 'Email Subscribers...' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Last Name')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Added Before')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Total less than'), '5{Enter}');
    expect(await screen.findByText('No sales match the search criteria.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Export' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Export Itemised Sales',
      'Export Sales',
      'Excel (France): semicolons, decimal comma',
      'Standard CSV: commas, decimal point',
    ]);
  });
});

describe('Email Subscribers dialog of the Sales list', { timeout: 20_000 }, () => {
  const preview = {
    recipients: 1,
    skipped: { noAddress: 0, unsubscribed: 0, deleted: 1 },
    preview: { to: 'zoe@example.org', subject: 'Merci !', text: 'Bonjour Zoé' },
  };

  async function openEmailDialog(extra: Parameters<typeof mockFetch>[0] = {}) {
    signIn();
    const { requests } = salesRoutes(() => [sale], {
      'POST /api/sales/email/list/preview': () => jsonResponse(preview),
      ...extra,
    });
    const rendered = renderSalesRoutes('/sales');
    await screen.findByRole('heading', { name: 'Sales' });
    await rendered.user.type(screen.getByLabelText('Postcode'), '69{Enter}');
    await screen.findByRole('table', { name: 'Sales' });
    await rendered.user.click(screen.getByRole('button', { name: 'Email Subscribers...' }));
    return {
      ...rendered,
      requests,
      dialog: await screen.findByRole('dialog', { name: 'Email Subscribers' }),
    };
  }

  const emailPosts = (requests: Array<{ method: string; path: string }>) =>
    requests.filter((request) => request.path === '/api/sales/email/list');

  it('shows the required messages once touched and the incomplete text after an invalid Send', async () => {
    const { user, dialog, requests } = await openEmailDialog();
    const subject = within(dialog).getByLabelText('Subject');
    expect(subject).toHaveAttribute('placeholder', 'Enter subject');

    await user.type(subject, 'Hi');
    await user.click(within(dialog).getByLabelText('Message'));
    expect(within(dialog).getByText('Subject is required')).toBeInTheDocument();
    expect(within(dialog).queryByText('Please complete all the information!')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeDisabled();

    await user.type(within(dialog).getByLabelText('Message'), 'Bonjour');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByText('Please complete all the information!')).toBeInTheDocument();
    expect(emailPosts(requests)).toHaveLength(0);
  });

  it('says who is skipped, asks to confirm, sends the message with the search filters and shows the progress', async () => {
    const { user, dialog, requests } = await openEmailDialog({
      'POST /api/sales/email/list': () => jsonResponse({ queued: 1, sendId: 3 }, 202),
      'GET /api/mail/sends/3': () =>
        jsonResponse({
          id: 3,
          subject: 'Merci !',
          createdBy: 'Ann',
          createdAt: '2026-11-26T10:00:00.000Z',
          total: 1,
          queued: 0,
          sent: 1,
          failed: 0,
          cancelled: 0,
        }),
    });
    expect(
      await within(dialog).findByText(
        '1 will receive it. Skipped: 0 without an email address, 0 unsubscribed, 1 deleted.',
      ),
    ).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Subject'), 'Merci !');
    await user.type(within(dialog).getByLabelText('Message'), 'Bonjour {{firstName}');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByRole('heading', { name: 'Send to 1 subscriber?' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Yes, send' }));

    expect(await screen.findByText('Email(s) submitted successfully!')).toBeInTheDocument();
    expect(await within(dialog).findByText('Queued: 0 · Sent: 1 · Failed: 0')).toBeInTheDocument();
    expect(emailPosts(requests)[0]).toMatchObject({
      method: 'POST',
      body: {
        subject: 'Merci !',
        message: 'Bonjour {firstName}',
        id: -1,
        name: '',
        postCode: '69',
        salesRef: null,
        addedAfter: '',
        addedBefore: '',
        amountMin: null,
        amountMax: null,
        productId: null,
      },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Email Subscribers' })).not.toBeInTheDocument(),
    );
  });

  it('says Houston when the emails cannot be sent', async () => {
    const { user, dialog } = await openEmailDialog();
    await user.type(within(dialog).getByLabelText('Subject'), 'Merci !');
    await user.type(within(dialog).getByLabelText('Message'), 'Bonjour');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await user.click(within(dialog).getByRole('button', { name: 'Yes, send' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem emailing the subscribers. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Email Subscribers' })).toBeInTheDocument();
  });
});
