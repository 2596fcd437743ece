import type { Sale, SaleSummary } from '@back-office/contract/sales';
import { screen, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { signIn } from '../../../testing/session.ts';
import { renderSalesRoutes } from '../testing/render-sales-routes.tsx';

const summary: SaleSummary = {
  id: 40,
  subscriberId: 7,
  fullName: 'Mme Anne Dupont',
  total: 59.5,
  currencyName: 'EURO',
  currencySymbol: '€',
  dateAdded: '2025-03-07T10:00:00.000Z',
  postcode: '69001',
  address: '1 rue de la Paix, Lyon',
  ref: 12,
  invoiceIssued: true,
  status: 'active',
  creditNoteNumber: null,
  paymentStatus: 'partiallyPaid',
  reminderLevel: 0,
  lastReminderOn: null,
};

const detail: Sale = {
  id: 40,
  ref: 12,
  subscriberId: 7,
  subscriberName: 'Mme Anne Dupont',
  total: 59.5,
  currencyName: 'EURO',
  currencySymbol: '€',
  addedBy: 'Ada Admin',
  dateAdded: '2025-03-07T10:00:00.000Z',
  postCode: '69001',
  saleDetails: [],
  invoiceIssued: true,
  status: 'active',
  creditNoteNumber: null,
  paymentReference: 'RF18000000000000000000012',
  paymentStatus: 'partiallyPaid',
  dueDate: '2025-04-06',
  paidAmount: 30,
  payments: [
    { id: 1, date: '2025-03-20', amount: 30, source: 'statement', entryRef: 'E-1', recordedBy: 'Ada Admin' },
  ],
  reminderLevel: 0,
  lastReminderOn: null,
};

const products = { 'GET /api/products': () => jsonResponse([]) };

/** Spaces of every kind as plain spaces. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');

describe('Sales list: payment status and payments', { timeout: 20_000 }, () => {
  it('runs the overdue search written in the address and sends the status chosen in the form', async () => {
    signIn();
    const requests = mockFetch({
      ...products,
      'GET /api/sales': () => jsonResponse([{ ...summary, paymentStatus: 'overdue' }]),
    });
    const { user } = renderSalesRoutes('/sales?paymentStatus=overdue');

    const table = await screen.findByRole('table', { name: 'Sales' });
    expect(await within(table).findByText('Overdue')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Payment status' })).toHaveValue('Overdue');
    expect(requests.find((request) => request.path === '/api/sales')?.query.get('paymentStatus')).toBe(
      'overdue',
    );

    await user.click(screen.getByRole('combobox', { name: 'Payment status' }));
    await user.click(await screen.findByRole('option', { name: 'Partially paid' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('table', { name: 'Sales' });
    const last = requests.filter((request) => request.path === '/api/sales').at(-1);
    expect(last?.query.get('paymentStatus')).toBe('partiallyPaid');
  });

  it('shows the badge only for an issued invoice, in the subscriber list too', async () => {
    signIn();
    mockFetch({
      ...products,
      'GET /api/sales': () =>
        jsonResponse([
          { ...summary, paymentStatus: 'paid' },
          { ...summary, id: 41, ref: 13, invoiceIssued: false, paymentStatus: null },
        ]),
    });
    renderSalesRoutes('/sales?subid=7&fn=Anne&ln=Dupont&sy=%E2%82%AC');
    const table = await screen.findByRole('table', { name: 'Sales' });
    expect(await within(table).findByText('Paid')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Payments #12' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Record payment #13' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Payments #13' })).not.toBeInTheDocument();
  });

  it('shows the due date, paid amount and payments, and records a payment with the server refusal under its field', async () => {
    signIn();
    let refused = false;
    const requests = mockFetch({
      ...products,
      'GET /api/sales': () => jsonResponse([summary]),
      'GET /api/sales/40': () => jsonResponse(detail),
      'POST /api/sales/40/payments': () => {
        if (!refused) {
          refused = true;
          return problemResponse(400, 'sales.invalid', {
            errors: [{ path: 'amount', message: 'At most 29,50 € remains to pay.' }],
          });
        }
        return jsonResponse({ ...detail, paymentStatus: 'paid', paidAmount: 59.5 }, 201);
      },
    });
    const { user } = renderSalesRoutes('/sales?paymentStatus=partiallyPaid');
    const table = await screen.findByRole('table', { name: 'Sales' });
    await user.click(await within(table).findByRole('button', { name: 'Record payment #12' }));

    const dialog = await screen.findByRole('dialog', { name: 'Payments of sale #12' });
    expect(await within(dialog).findByText('06/04/2025')).toBeInTheDocument();
    expect(plain(dialog.textContent)).toContain('Paid30,00 €');
    expect(plain(dialog.textContent)).toContain('Remaining29,50 €');
    const payments = within(dialog).getByRole('table', { name: 'Payments' });
    expect(plain(payments.querySelector('tbody tr')?.textContent)).toBe(
      '20/03/202530,00 €From a bank statement',
    );

    const date = within(dialog).getByRole('textbox', { name: /Date/ });
    expect(date).toHaveValue(dayjs().format('DD/MM/YYYY'));
    const amount = within(dialog).getByRole('textbox', { name: /Amount/ });
    await user.clear(amount);
    await user.type(amount, '30,5');
    await user.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    expect(await within(dialog).findAllByText('At most 29,50 € remains to pay.')).not.toHaveLength(0);
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      date: dayjs().format('YYYY-MM-DD'),
      amount: 30.5,
    });

    await user.clear(amount);
    await user.type(amount, '29,5');
    await user.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    expect(
      await screen.findByText('A payment of 29,50 € was recorded for the sale #12!', { normalizer: plain }),
    ).toBeInTheDocument();
  });

  it('says why a payment cannot be recorded on a cancelled sale', async () => {
    signIn();
    mockFetch({
      ...products,
      'GET /api/sales': () => jsonResponse([summary]),
      'GET /api/sales/40': () => jsonResponse(detail),
      'POST /api/sales/40/payments': () =>
        problemResponse(409, 'sales.already_cancelled', { detail: 'The sale #12 was cancelled.' }),
    });
    const { user } = renderSalesRoutes('/sales?paymentStatus=partiallyPaid');
    const table = await screen.findByRole('table', { name: 'Sales' });
    await user.click(await within(table).findByRole('button', { name: 'Record payment #12' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payments of sale #12' });
    await user.click(await within(dialog).findByRole('button', { name: 'Record payment' }));
    expect(await screen.findByText(/The sale #12 was cancelled\./)).toBeInTheDocument();
  });

  it('sends a payment reminder of an overdue invoice, and says why when it is too soon', async () => {
    signIn();
    let sent = false;
    const overdue = { ...detail, paymentStatus: 'overdue' as const };
    const requests = mockFetch({
      ...products,
      'GET /api/sales': () => jsonResponse([{ ...summary, paymentStatus: 'overdue' }]),
      'GET /api/sales/40': () => jsonResponse(overdue),
      'POST /api/sales/40/reminders': () => {
        if (sent) {
          return problemResponse(409, 'sales.reminder_too_soon', {
            detail: 'The last reminder was sent on 2025-04-20; the next one can be sent from 2025-05-04.',
          });
        }
        sent = true;
        return jsonResponse({ ...overdue, reminderLevel: 1, lastReminderOn: '2025-04-20' }, 201);
      },
    });
    const { user } = renderSalesRoutes('/sales?paymentStatus=overdue');
    const table = await screen.findByRole('table', { name: 'Sales' });
    await user.click(await within(table).findByRole('button', { name: 'Record payment #12' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payments of sale #12' });
    expect(await within(dialog).findByText('No reminder sent yet.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Send a reminder' }));
    expect(
      await screen.findByText('Payment reminder n° 1 of the sale #12 was emailed to the buyer!'),
    ).toBeInTheDocument();
    expect(await within(dialog).findByText('1 reminder sent, the last on 20/04/2025.')).toBeInTheDocument();
    expect(requests.filter((request) => request.path === '/api/sales/40/reminders')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Send a reminder' }));
    expect(await screen.findByText(/the next one can be sent from 2025-05-04\./)).toBeInTheDocument();
  });
});
