import type { Product } from '@back-office/contract/products';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { emptyResponse, jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { ProductsList } from './products-list.tsx';

const agenda: Product = {
  id: 4,
  name: 'Agenda été',
  euroPrice: 1234.5,
  swissPrice: 1300,
  active: true,
  currentStock: 2,
  minStockAlert: 5,
  version: 1,
};
const calendar: Product = { ...agenda, id: 5, name: 'Calendrier', currentStock: 40, active: false };

function rowOf(text: string): HTMLElement {
  const row = screen.getByText(text).closest('tr');
  if (!row) throw new Error(`No row holds ${text}`);
  return row;
}

describe('ProductsList', () => {
  it('shows each product with "N item(s) in stock", French prices, Stock, Edit and Remove', async () => {
    signIn();
    mockFetch({ 'GET /api/products': () => jsonResponse([agenda, calendar]) });
    const onEdit = vi.fn();
    const onStock = vi.fn();
    const { user } = renderWithProviders(<ProductsList onEdit={onEdit} onStock={onStock} />);
    expect(await screen.findByText('Agenda été')).toBeInTheDocument();
    const row = rowOf('Agenda été');
    expect(within(row).getByText('2 item(s) in stock')).toBeInTheDocument();
    expect(within(row).getByText(/1\s234,50 € · 1\s300,00 CHF/)).toBeInTheDocument();
    expect(within(rowOf('Calendrier')).getByText('40 item(s) in stock')).toBeInTheDocument();
    expect(within(rowOf('Calendrier')).getByText('Inactive')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    expect(onEdit).toHaveBeenCalledWith(agenda);
    await user.click(within(row).getByRole('button', { name: 'Stock of Agenda été' }));
    expect(onStock).toHaveBeenCalledWith(agenda);
  });

  it('says No products exist! only once the empty list has loaded', async () => {
    signIn();
    mockFetch({ 'GET /api/products': () => jsonResponse([]) });
    renderWithProviders(<ProductsList onEdit={vi.fn()} onStock={vi.fn()} />);
    expect(screen.queryByText('No products exist!')).not.toBeInTheDocument();
    expect(await screen.findByText('No products exist!')).toBeInTheDocument();
  });

  it('shows the error toast when the list cannot be loaded', async () => {
    signIn();
    mockFetch({ 'GET /api/products': () => problemResponse(403, 'auth.forbidden') });
    renderWithProviders(<ProductsList onEdit={vi.fn()} onStock={vi.fn()} />);
    expect(
      await screen.findByText(
        'Houston - there was a problem getting the products. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
  });

  it('removes in two steps and says so', async () => {
    signIn();
    let products = [agenda, calendar];
    mockFetch({
      'GET /api/products': () => jsonResponse(products),
      'DELETE /api/products/4': () => {
        products = [calendar];
        return emptyResponse(204);
      },
    });
    const { user } = renderWithProviders(<ProductsList onEdit={vi.fn()} onStock={vi.fn()} />);
    await screen.findByText('Agenda été');
    await user.click(within(rowOf('Agenda été')).getByRole('button', { name: 'Remove' }));
    await user.click(within(rowOf('Agenda été')).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(await screen.findByText("Product 'Agenda été' was deleted successfully!")).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByText('Agenda été')).not.toBeInTheDocument());
  });

  it('keeps the row when the delete fails', async () => {
    signIn();
    mockFetch({
      'GET /api/products': () => jsonResponse([agenda]),
      'DELETE /api/products/4': () => problemResponse(500, 'internal'),
    });
    const { user } = renderWithProviders(<ProductsList onEdit={vi.fn()} onStock={vi.fn()} />);
    await screen.findByText('Agenda été');
    await user.click(within(rowOf('Agenda été')).getByRole('button', { name: 'Remove' }));
    await user.click(within(rowOf('Agenda été')).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem deleting a product. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(within(rowOf('Agenda été')).getByRole('button', { name: 'Remove' })).toBeInTheDocument();
  });
});
