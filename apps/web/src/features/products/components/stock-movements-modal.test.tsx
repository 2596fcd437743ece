import type { Product, StockMovement } from '@back-office/contract/products';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { StockMovementsModal } from './stock-movements-modal.tsx';

const agenda: Product = {
  id: 4,
  name: 'Agenda été',
  euroPrice: 12.5,
  swissPrice: 14,
  active: true,
  currentStock: 4,
  minStockAlert: 2,
  version: 3,
};

const movements: StockMovement[] = [
  {
    id: 3,
    at: '2026-11-20T09:15:00.000Z',
    kind: 'sale',
    quantity: -6,
    stockAfter: 4,
    saleId: 12,
    userName: 'Léa Dupont',
  },
  {
    id: 1,
    at: '2026-11-19T08:00:00.000Z',
    kind: 'adjustment',
    quantity: 10,
    stockAfter: 10,
    reason: 'Stock initial',
    userName: 'Administrator',
  },
];

describe('StockMovementsModal', () => {
  it('lists the movements newest first with what, how many, the stock after, the reason and who', async () => {
    signIn();
    mockFetch({
      'GET /api/products': () => jsonResponse([agenda]),
      'GET /api/products/4/movements': () => jsonResponse({ count: 2, models: movements }),
    });
    renderWithProviders(<StockMovementsModal opened product={agenda} onClose={vi.fn()} />);
    expect(screen.getByRole('dialog', { name: 'Stock: Agenda été' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Stock movements' });
    const [, sale, adjustment] = within(table).getAllByRole('row');
    expect(sale).toHaveTextContent(/Sale #12−64Léa Dupont/);
    expect(adjustment).toHaveTextContent(/Adjustment\+1010Stock initialAdministrator/);
    expect(screen.getByText('4 item(s) in stock')).toBeInTheDocument();
    expect(screen.getByText('1–2 of 2')).toBeInTheDocument();
  });

  it('adjusts the stock with a reason, then goes back to the refreshed list', async () => {
    signIn();
    let stock = 4;
    const requests = mockFetch({
      'GET /api/products': () => jsonResponse([{ ...agenda, currentStock: stock }]),
      'GET /api/products/4/movements': () => jsonResponse({ count: 2, models: movements }),
      'POST /api/products/4/adjustments': () => {
        stock = 24;
        return jsonResponse(
          {
            id: 4,
            at: '2026-11-21T10:00:00.000Z',
            kind: 'adjustment',
            quantity: 20,
            stockAfter: 24,
            reason: 'Livraison',
            userName: 'Administrator',
          },
          201,
        );
      },
    });
    const { user } = renderWithProviders(<StockMovementsModal opened product={agenda} onClose={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Adjust stock' }));
    expect(screen.getByRole('dialog', { name: 'Adjust stock: Agenda été' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Quantity'), '20');
    expect(screen.getByText('Stock after: 24 item(s)')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Reason'), 'Livraison');
    await user.click(screen.getByRole('button', { name: 'Adjust stock' }));

    expect(
      await screen.findByText("Stock of 'Agenda été' adjusted by +20: 24 item(s) in stock."),
    ).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      quantity: 20,
      reason: 'Livraison',
    });
    expect(await screen.findByText('24 item(s) in stock')).toBeInTheDocument();
  });

  it('refuses a zero quantity and an empty reason without calling the server', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/products': () => jsonResponse([agenda]),
      'GET /api/products/4/movements': () => jsonResponse({ count: 2, models: movements }),
    });
    const { user } = renderWithProviders(<StockMovementsModal opened product={agenda} onClose={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Adjust stock' }));
    await user.type(screen.getByLabelText('Quantity'), '0');
    await user.click(screen.getByRole('button', { name: 'Adjust stock' }));
    expect(await screen.findByText('The quantity cannot be 0.')).toBeInTheDocument();
    expect(screen.getByText('The reason is required.')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it("shows the server's insufficient-stock message under Quantity and stays on the form", async () => {
    signIn();
    const message = 'Only 4 of "Agenda été" in stock (5 asked).';
    mockFetch({
      'GET /api/products': () => jsonResponse([agenda]),
      'GET /api/products/4/movements': () => jsonResponse({ count: 2, models: movements }),
      'POST /api/products/4/adjustments': () =>
        problemResponse(409, 'products.insufficient_stock', {
          detail: message,
          errors: [{ path: 'quantity', message }],
        }),
    });
    const { user } = renderWithProviders(<StockMovementsModal opened product={agenda} onClose={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Adjust stock' }));
    await user.type(screen.getByLabelText('Quantity'), '-5');
    expect(screen.getByText('Stock after: -1 item(s)')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Reason'), 'Casse');
    await user.click(screen.getByRole('button', { name: 'Adjust stock' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByLabelText('Quantity')).toHaveAttribute('aria-invalid', 'true');
  });
});
