import type { Product } from '@back-office/contract/products';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { ProductFormModal } from './product-form-modal.tsx';

const agenda: Product = {
  id: 4,
  name: 'Agenda été',
  euroPrice: 12.5,
  swissPrice: 14,
  active: true,
  currentStock: 3,
  minStockAlert: 5,
  version: 7,
};

type Interactions = ReturnType<typeof renderWithProviders>['user'];

async function replace(user: Interactions, label: string, text: string) {
  const input = screen.getByLabelText(label);
  await user.clear(input);
  if (text) await user.type(input, text);
}

describe('ProductFormModal', () => {
  it('opens with the defaults of a new product: empty name, prices 0, stocks 0, active', () => {
    mockFetch({});
    renderWithProviders(<ProductFormModal opened product={null} onClose={vi.fn()} />);
    expect(screen.getByRole('dialog', { name: 'Add New Product' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('');
    expect(screen.getByLabelText('Euros Price')).toHaveValue('€ 0,00');
    expect(screen.getByLabelText('Swiss Price')).toHaveValue('CHF 0,00');
    expect(screen.getByLabelText('Current Stock')).toHaveValue('0');
    expect(screen.getByLabelText('Minimum Stock Level')).toHaveValue('0');
    expect(screen.getByRole('switch', { name: /^Active\?/ })).toBeChecked();
    expect(screen.getByText('(Yes - product is active)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it('after an invalid submit shows the incomplete-form text and every required message, and sends nothing', async () => {
    const requests = mockFetch({});
    const { user } = renderWithProviders(<ProductFormModal opened product={null} onClose={vi.fn()} />);
    await replace(user, 'Euros Price', '');
    await replace(user, 'Swiss Price', '');
    await replace(user, 'Current Stock', '');
    await replace(user, 'Minimum Stock Level', '');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Please complete all the information!')).toBeInTheDocument();
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Price (Euro) is required')).toBeInTheDocument();
    expect(screen.getByText('Price (Swiss) is required')).toBeInTheDocument();
    expect(screen.getByText('Stock is required')).toBeInTheDocument();
    expect(screen.getByText('Min Stock is required')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('wants a name of at least 4 characters', async () => {
    mockFetch({});
    const { user } = renderWithProviders(<ProductFormModal opened product={null} onClose={vi.fn()} />);
    await user.type(screen.getByLabelText('Name'), 'Pen');
    await user.tab();
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
  });

  it('switches the Active? hint', async () => {
    mockFetch({});
    const { user } = renderWithProviders(<ProductFormModal opened product={null} onClose={vi.fn()} />);
    await user.click(screen.getByRole('switch', { name: /^Active\?/ }));
    expect(screen.getByText('(No - product is NOT active)')).toBeInTheDocument();
    expect(screen.queryByText('(Yes - product is active)')).not.toBeInTheDocument();
  });

  it('creates with French-typed prices, keeps a busy Save until the server answers, then closes', async () => {
    signIn();
    const answer = deferred<Response>();
    const requests = mockFetch({ 'POST /api/products': () => answer.promise });
    const onClose = vi.fn();
    const { user } = renderWithProviders(<ProductFormModal opened product={null} onClose={onClose} />);
    await user.type(screen.getByLabelText('Name'), 'Agenda été');
    await replace(user, 'Euros Price', '1.234,50');
    await replace(user, 'Swiss Price', '1.300,00');
    await replace(user, 'Current Stock', '2');
    await replace(user, 'Minimum Stock Level', '5');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.body).toEqual({
      name: 'Agenda été',
      euroPrice: 1234.5,
      swissPrice: 1300,
      active: true,
      currentStock: 2,
      minStockAlert: 5,
    });
    expect(screen.getByRole('button', { name: 'Save' })).toHaveAttribute('data-loading');
    expect(onClose).not.toHaveBeenCalled();

    answer.resolve(
      jsonResponse(
        { ...agenda, euroPrice: 1234.5, swissPrice: 1300, currentStock: 2, minStockAlert: 5 },
        201,
      ),
    );
    expect(await screen.findByText("Product 'Agenda été' was created successfully!")).toBeInTheDocument();
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('edits with PATCH including the id and the version read, without the stock, under an Update button', async () => {
    signIn();
    const requests = mockFetch({
      'PATCH /api/products/4': () => jsonResponse({ ...agenda, name: 'Agenda hiver', active: false }),
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(<ProductFormModal opened product={agenda} onClose={onClose} />);
    expect(screen.getByRole('dialog', { name: 'Edit Product' })).toBeInTheDocument();
    expect(screen.getByLabelText('Euros Price')).toHaveValue('€ 12,50');
    expect(screen.getByLabelText('Swiss Price')).toHaveValue('CHF 14,00');
    expect(screen.queryByLabelText('Current Stock')).not.toBeInTheDocument();
    await replace(user, 'Name', 'Agenda hiver');
    await user.click(screen.getByRole('switch', { name: /^Active\?/ }));
    await user.click(screen.getByRole('button', { name: 'Update' }));

    expect(await screen.findByText("Product 'Agenda hiver' was updated successfully!")).toBeInTheDocument();
    expect(requests[0]?.body).toEqual({
      id: 4,
      name: 'Agenda hiver',
      euroPrice: 12.5,
      swissPrice: 14,
      active: false,
      minStockAlert: 5,
      version: 7,
    });
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('says someone else changed the product when the server finds the version stale, and stays open', async () => {
    signIn();
    mockFetch({
      'PATCH /api/products/4': () =>
        problemResponse(409, 'products.stale', {
          errors: [{ path: 'version', message: 'This product was changed since you opened it.' }],
        }),
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(<ProductFormModal opened product={agenda} onClose={onClose} />);
    await replace(user, 'Name', 'Agenda hiver');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem updating a product. Someone else changed this product after you opened it. Close the dialog, open it again and make your changes once more. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Name')).toHaveValue('Agenda hiver');
  });

  it('shows a field refused by the server under that field and stays open', async () => {
    signIn();
    mockFetch({
      'POST /api/products': () =>
        problemResponse(400, 'validation.failed', {
          errors: [{ path: 'euroPrice', message: 'The amount can have at most 2 decimals.' }],
        }),
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(<ProductFormModal opened product={null} onClose={onClose} />);
    await user.type(screen.getByLabelText('Name'), 'Agenda été');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The amount can have at most 2 decimals.')).toBeInTheDocument();
    expect(screen.getByLabelText('Euros Price')).toHaveAttribute('aria-invalid', 'true');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('says so in a toast when the server fails, keeping what was typed', async () => {
    signIn();
    mockFetch({ 'PATCH /api/products/4': () => problemResponse(500, 'internal', { detail: 'db down' }) });
    const { user } = renderWithProviders(<ProductFormModal opened product={agenda} onClose={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem updating a product. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('db down')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Agenda été');
  });

  it('closes on Cancel and on the close icon, not on a click outside', async () => {
    mockFetch({});
    const onClose = vi.fn();
    const { user } = renderWithProviders(<ProductFormModal opened product={null} onClose={onClose} />);
    await user.click(document.body);
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
