import type { Product } from '@back-office/contract/products';
import { computeSaleTotals } from '@back-office/contract/sale-totals';
import type { Subscriber } from '@back-office/contract/subscribers';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../../lib/format.ts';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { signIn } from '../../../testing/session.ts';
import { renderSalesRoutes } from '../testing/render-sales-routes.tsx';

const buyer: Subscriber = {
  id: 7,
  version: 1,
  title: 'Mme',
  firstName: 'Anne',
  lastName: 'Dupont',
  email: 'anne@example.org',
  phone: '',
  mobile: '',
  fax: '',
  address1: '1 rue de la Paix',
  address2: 'Bâtiment B',
  address3: '',
  town: 'Lyon',
  postcode: '69001',
  billingAddress: '',
  notes: '',
  association: 'Les Amis',
  inactive: false,
  inactiveReason: '',
  rum: '',
  countryId: 2,
  paymentMethodId: 0,
  categoryId: 0,
  subscriptionTypeId: 0,
  currencyId: 1,
  recommendedBy: '',
  copies: 0,
  bank: '',
  iban: '',
  amount: 0,
  startDate: null,
  endDate: null,
  tags: [],
  onMailChimpList: false,
  newsletterEmail: '',
  emailConsentDate: null,
  emailConsentSource: '',
  addedBy: 'Ada Admin',
  addedOn: '2024-01-02T10:00:00.000Z',
  hidden: false,
};

const products: Product[] = [
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
    euroPrice: 0.335,
    swissPrice: 0.4,
    active: true,
    currentStock: 10,
    minStockAlert: 1,
    version: 1,
  },
  {
    id: 3,
    name: 'Calendrier',
    euroPrice: 19.99,
    swissPrice: 21.5,
    active: true,
    currentStock: 5,
    minStockAlert: 1,
    version: 1,
  },
  {
    id: 4,
    name: 'Old poster',
    euroPrice: 3,
    swissPrice: 4,
    active: false,
    currentStock: 0,
    minStockAlert: 0,
    version: 1,
  },
];

const countries = [
  { id: 1, name: 'Suisse', order: 100 },
  { id: 2, name: 'France', order: 100 },
];
const currencies = [
  { id: 1, name: 'EURO', symbol: '€' },
  { id: 2, name: 'Swiss Franc', symbol: 'CHF' },
];

function newSaleRoutes(subscriber: Subscriber = buyer, extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    [`GET /api/subscribers/${subscriber.id}`]: () => jsonResponse(subscriber),
    'GET /api/products': () => jsonResponse(products),
    'GET /api/ctries': () => jsonResponse(countries),
    'GET /api/currencies': () => jsonResponse(currencies),
    ...extra,
  });
}

/** French amounts use narrow no-break spaces; Testing Library compares text with plain spaces. */
function money(value: number, symbol = '€'): string {
  return `${formatMoney(value)} ${symbol}`.replace(/\s/g, ' ');
}

function total(value: number, symbol = '€'): string {
  return `${formatMoney(value)} (${symbol})`.replace(/\s/g, ' ');
}

type Interactions = ReturnType<typeof renderSalesRoutes>['user'];

async function openNewSale(subscriber: Subscriber = buyer, extra: Parameters<typeof mockFetch>[0] = {}) {
  signIn();
  const requests = newSaleRoutes(subscriber, extra);
  const rendered = renderSalesRoutes(`/newsale/${subscriber.id}`);
  await screen.findByRole('heading', { name: `New Sale for ${subscriber.firstName} ${subscriber.lastName}` });
  return { ...rendered, requests };
}

async function addLine(user: Interactions, product: string, quantity: number) {
  await user.click(screen.getByRole('combobox', { name: 'Product' }));
  await user.click(await screen.findByRole('option', { name: product }));
  const quantityField = screen.getByRole('textbox', { name: 'Quantity' });
  await user.clear(quantityField);
  await user.type(quantityField, String(quantity));
  await user.click(screen.getByRole('button', { name: 'Add Line' }));
}

function linesTable() {
  return screen.getByRole('table', { name: 'Sale lines' });
}

function lineRow(product: string) {
  const row = within(linesTable())
    .getAllByRole('row')
    .find((candidate) => within(candidate).queryByText(product, { exact: true }));
  if (!row) throw new Error(`No line for ${product}`);
  return row;
}

// Each test drives several Mantine inputs key by key: slow under a loaded machine.
describe('New Sale screen', { timeout: 20_000 }, () => {
  it('opens with the subscriber, the Sale Info defaults and no line', async () => {
    await openNewSale();
    expect(screen.getByRole('link', { name: 'Anne Dupont' })).toHaveAttribute('href', '/subscriber/7');
    expect(screen.getByRole('button', { name: 'Sale Info' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByLabelText('Address 1')).toHaveValue('1 rue de la Paix');
    expect(screen.getByLabelText('Address 2')).toHaveValue('Bâtiment B');
    expect(screen.getByLabelText('Town')).toHaveValue('Lyon');
    expect(screen.getByLabelText('Postcode')).toHaveValue('69001');
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('France');
    expect(screen.getByText("(No - don't include thanks.)")).toBeInTheDocument();
    expect(screen.getByText('(No - not a Swiss sale)')).toBeInTheDocument();
    expect(screen.getByText("(No - don't include payment terms.)")).toBeInTheDocument();
    expect(screen.getByText('Please add some product lines.')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Sale lines' })).not.toBeInTheDocument();
  });

  it('selects ** Please Select ** when the subscriber has no country', async () => {
    await openNewSale({ ...buyer, countryId: 0 });
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('** Please Select **');
  });

  it('enables Add Line only with a product and a non-zero quantity, then clears both', async () => {
    const { user } = await openNewSale();
    const addButton = screen.getByRole('button', { name: 'Add Line' });
    const quantity = screen.getByRole('textbox', { name: 'Quantity' });
    expect(quantity).toHaveValue('0');
    expect(addButton).toBeDisabled();

    await user.type(quantity, '{backspace}3');
    expect(addButton).toBeDisabled();

    await user.click(screen.getByRole('combobox', { name: 'Product' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Agenda', 'Badge', 'Calendrier']);
    await user.click(screen.getByRole('option', { name: 'Agenda' }));
    expect(addButton).toBeEnabled();

    await user.clear(quantity);
    await user.type(quantity, '0');
    expect(addButton).toBeDisabled();
    await user.clear(quantity);
    await user.type(quantity, '2');
    expect(addButton).toBeEnabled();

    await user.click(addButton);
    expect(within(lineRow('Agenda')).getByRole('textbox', { name: 'Quantity of Agenda' })).toHaveValue('2');
    expect(screen.getByRole('combobox', { name: 'Product' })).toHaveValue('');
    expect(quantity).toHaveValue('0');
    expect(addButton).toBeDisabled();
    expect(screen.queryByText('Please add some product lines.')).not.toBeInTheDocument();
  });

  it('shows the figures of computeSaleTotals, with a free line, a discount, delivery and donation', async () => {
    const { user } = await openNewSale();
    await addLine(user, 'Agenda', 3);
    await addLine(user, 'Badge', 3);
    await addLine(user, 'Calendrier', 2);

    let expected = computeSaleTotals({
      lines: [
        { quantity: 3, unitPrice: 12.5 },
        { quantity: 3, unitPrice: 0.335 },
        { quantity: 2, unitPrice: 19.99 },
      ],
      discountPercentage: 0,
      donation: 0,
      deliveryCharge: 0,
    });
    // 3 × 0.335 = 1.005 is rounded half up to 1,01.
    expect(lineRow('Badge')).toHaveTextContent('1,01 €');
    expect(screen.getByLabelText('Sub-Total amount')).toHaveTextContent(money(expected.subTotal));
    expect(screen.getByLabelText('TOTAL amount')).toHaveTextContent(total(expected.total));

    await user.click(within(lineRow('Calendrier')).getByRole('button', { name: 'Free Calendrier' }));
    expect(lineRow('Calendrier')).toHaveTextContent('0,00 €');

    const discount = screen.getByRole('textbox', { name: 'Remise %' });
    await user.clear(discount);
    await user.type(discount, '33,333');
    const delivery = screen.getByRole('textbox', { name: 'Frais/livraison' });
    await user.clear(delivery);
    await user.type(delivery, '5,40');
    const donation = screen.getByRole('textbox', { name: 'Dons' });
    await user.clear(donation);
    await user.type(donation, '1.000,25');

    expected = computeSaleTotals({
      lines: [
        { quantity: 3, unitPrice: 12.5 },
        { quantity: 3, unitPrice: 0.335 },
        { quantity: 2, unitPrice: 0 },
      ],
      discountPercentage: 33.333,
      donation: 1000.25,
      deliveryCharge: 5.4,
    });
    expect(screen.getByLabelText('Sub-Total amount')).toHaveTextContent(money(expected.subTotal));
    expect(screen.getByLabelText('Remise amount')).toHaveTextContent(money(expected.discount));
    expect(screen.getByLabelText('TOTAL amount')).toHaveTextContent(total(expected.total));
    expect(expected.total).toBeCloseTo(38.51 - 12.84 + 5.4 + 1000.25, 2);

    await user.click(within(lineRow('Agenda')).getByRole('button', { name: 'Remove Agenda' }));
    expected = computeSaleTotals({
      lines: [
        { quantity: 3, unitPrice: 0.335 },
        { quantity: 2, unitPrice: 0 },
      ],
      discountPercentage: 33.333,
      donation: 1000.25,
      deliveryCharge: 5.4,
    });
    expect(screen.getByLabelText('TOTAL amount')).toHaveTextContent(total(expected.total));
  });

  it('switches every unit price between the euro and the Swiss price with swissSale', async () => {
    const { user } = await openNewSale();
    await addLine(user, 'Agenda', 2);
    expect(lineRow('Agenda')).toHaveTextContent('12,50 €');
    expect(lineRow('Agenda')).toHaveTextContent('25,00 €');

    await user.click(screen.getByRole('switch', { name: /Swiss sale\?/ }));
    expect(screen.getByText('(Yes - Swiss sale)')).toBeInTheDocument();
    expect(lineRow('Agenda')).toHaveTextContent('14,00 CHF');
    expect(lineRow('Agenda')).toHaveTextContent('28,00 CHF');
    expect(screen.getByLabelText('TOTAL amount')).toHaveTextContent('28,00 (CHF)');

    await user.click(screen.getByRole('switch', { name: /Swiss sale\?/ }));
    expect(screen.getByLabelText('TOTAL amount')).toHaveTextContent('25,00 (€)');
  });

  it("turns swissSale on by itself when the subscriber's currency symbol contains chf", async () => {
    await openNewSale({ ...buyer, currencyId: 2, countryId: 1 });
    expect(screen.getByRole('switch', { name: /Swiss sale\?/ })).toBeChecked();
    expect(screen.getByText('(Yes - Swiss sale)')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('Suisse');
  });

  it("asks for the buyer's postcode, town and country of a sale in francs, whose invoice carries a QR-bill", async () => {
    const { user, requests } = await openNewSale({
      ...buyer,
      currencyId: 2,
      countryId: 1,
      town: '',
      postcode: '',
    });
    await addLine(user, 'Agenda', 1);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("The buyer's town is required for a sale in francs.")).toBeInTheDocument();
    expect(screen.getByText("The buyer's postcode is required for a sale in francs.")).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('keeps Payment Terms (days) read-only unless includeTerms is on', async () => {
    const { user } = await openNewSale();
    const terms = screen.getByRole('textbox', { name: 'Payment Terms (days)' });
    expect(terms).toHaveValue('30');
    expect(terms).toHaveAttribute('readonly');
    await user.type(terms, '5');
    expect(terms).toHaveValue('30');

    await user.click(screen.getByRole('switch', { name: /Include payment terms\?/ }));
    expect(screen.getByText('(Yes - include payment terms.)')).toBeInTheDocument();
    expect(terms).not.toHaveAttribute('readonly');
    await user.clear(terms);
    await user.type(terms, '45');
    expect(terms).toHaveValue('45');
  });

  it('does nothing on Save without a line, and Enter never submits', async () => {
    const { user, requests, router } = await openNewSale();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.type(screen.getByLabelText('Order Number'), 'PO-1{Enter}');
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/newsale/7');
  });

  it('saves the payload of §3, then goes to the subscriber’s sales with a toast', async () => {
    const { user, requests, router } = await openNewSale(buyer, {
      'POST /api/sales': () =>
        jsonResponse(
          {
            id: 40,
            ref: 12,
            subscriberId: 7,
            subscriberName: 'Mme Anne Dupont',
            total: 37.5,
            currencyName: 'EURO',
            currencySymbol: '€',
            addedBy: 'Ada Admin',
            dateAdded: '2025-03-07T10:00:00.000Z',
            postCode: '69001',
            saleDetails: [],
            invoiceIssued: false,
            status: 'active',
            creditNoteNumber: null,
            paymentReference: null,
            paymentStatus: null,
            dueDate: null,
            paidAmount: 0,
            payments: [],
            reminderLevel: 0,
            lastReminderOn: null,
          },
          201,
        ),
      'GET /api/sales': () => jsonResponse([]),
    });
    await addLine(user, 'Agenda', 3);
    await user.type(screen.getByLabelText('Order Number'), 'PO-1');
    await user.click(screen.getByRole('switch', { name: /Include thanks\?/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText("The sale for 'Anne Dupont' was saved successfully");
    const post = requests.find((request) => request.method === 'POST');
    expect(post?.body).toEqual({
      subscriberId: 7,
      fullName: 'Mme Anne Dupont',
      association: 'Les Amis',
      currencySymbol: '€',
      discountPercentage: 0,
      donation: 0,
      deliveryCharge: 0,
      includeThanks: true,
      includePaymentTerms: false,
      paymentTermDays: 30,
      swissSale: false,
      addr1: '1 rue de la Paix',
      addr2: 'Bâtiment B',
      addr3: '',
      town: 'Lyon',
      postcode: '69001',
      orderNumber: 'PO-1',
      deliveryAddress: '',
      country: 'France',
      items: [
        {
          productId: 1,
          productName: 'Agenda',
          quantity: 3,
          euroUnitPrice: 12.5,
          swissUnitPrice: 14,
          unitPrice: 12.5,
        },
      ],
      notes: '',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sales'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      subid: '7',
      fn: 'Anne',
      ln: 'Dupont',
      sy: '€',
    });
  });

  it('says Houston when the save fails and stays on the screen', async () => {
    const { user, router } = await openNewSale(buyer, {
      'POST /api/sales': () => problemResponse(500, 'internal'),
    });
    await addLine(user, 'Agenda', 1);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem saving the sale. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/newsale/7');
  });

  it('adds the same product to its line, shows the stock and flags, then blocks, lines that together ask for more', async () => {
    const { user, requests } = await openNewSale();
    await addLine(user, 'Calendrier', 3);
    expect(within(lineRow('Calendrier')).getByText('5')).toBeInTheDocument();
    expect(within(linesTable()).queryByText('Only 5 in stock.')).not.toBeInTheDocument();
    // The same product again adds to its line (part 2 §2.6 Line adder).
    await addLine(user, 'Calendrier', 3);
    expect(screen.getByLabelText('Quantity of Calendrier')).toHaveValue('6');
    expect(within(linesTable()).getAllByText('Only 5 in stock.')).toHaveLength(1);
    // A line made Free stays apart, and counts with the other line of its product.
    await user.click(screen.getByRole('button', { name: 'Free Calendrier' }));
    await addLine(user, 'Calendrier', 1);
    expect(
      screen.getAllByLabelText('Quantity of Calendrier').map((field) => field.getAttribute('value')),
    ).toEqual(['6', '1']);
    expect(within(linesTable()).getAllByText('Only 5 in stock.')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findAllByText('More than in stock.')).length).toBe(2);
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it("shows the server's insufficient-stock message on the line and reloads the stock", async () => {
    const message = 'Only 1 of "Agenda" in stock (2 asked).';
    const { user, requests, router } = await openNewSale(buyer, {
      'POST /api/sales': () =>
        problemResponse(409, 'products.insufficient_stock', {
          detail: message,
          errors: [{ path: 'items.0.quantity', message }],
        }),
    });
    await addLine(user, 'Agenda', 2);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        `Houston - there was a problem saving the sale. ${message} Please try again or contact your system administrator.`,
      ),
    ).toBeInTheDocument();
    expect(within(lineRow('Agenda')).getByText(message)).toBeInTheDocument();
    await waitFor(() =>
      expect(requests.filter((request) => request.path === '/api/products').length).toBeGreaterThan(1),
    );
    expect(router.state.location.pathname).toBe('/newsale/7');
  });

  it('goes to the sales list when the subscriber is not found', async () => {
    signIn();
    mockFetch({
      'GET /api/subscribers/99': () => problemResponse(404, 'subscribers.not_found'),
      'GET /api/products': () => jsonResponse(products),
      'GET /api/ctries': () => jsonResponse(countries),
      'GET /api/currencies': () => jsonResponse(currencies),
      'GET /api/sales': () => jsonResponse([]),
    });
    const { router } = renderSalesRoutes('/newsale/99');
    await waitFor(() => expect(router.state.location.pathname).toBe('/sales'));
  });
});
