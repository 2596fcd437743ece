import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { emptyResponse, jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { countriesList, currenciesList, tagsList } from '../reference-list-configs.ts';
import { ReferenceItemsList } from './reference-items-list.tsx';

function rowOf(text: string): HTMLElement {
  const row = screen.getByText(text).closest('tr');
  if (!row) throw new Error(`No row holds ${text}`);
  return row;
}

describe('ReferenceItemsList', () => {
  it('shows currency rows as "name (symbol)" with Edit and Remove', async () => {
    signIn();
    mockFetch({
      'GET /api/currencies': () =>
        jsonResponse([
          { id: 1, name: 'EURO', symbol: '€' },
          { id: 2, name: 'Swiss Franc', symbol: 'CHF' },
        ]),
    });
    const onEdit = vi.fn();
    const { user } = renderWithProviders(<ReferenceItemsList list={currenciesList} onEdit={onEdit} />);
    expect(await screen.findByText('EURO (€)')).toBeInTheDocument();
    expect(screen.getByText('Swiss Franc (CHF)')).toBeInTheDocument();
    await user.click(within(rowOf('Swiss Franc (CHF)')).getByRole('button', { name: 'Edit' }));
    expect(onEdit).toHaveBeenCalledWith({ id: 2, name: 'Swiss Franc', symbol: 'CHF' });
    expect(within(rowOf('EURO (€)')).getByRole('button', { name: 'Remove' })).toBeInTheDocument();
  });

  it('keeps the order the server sends', async () => {
    signIn();
    mockFetch({
      'GET /api/tags': () =>
        jsonResponse([
          { id: 3, name: 'ami' },
          { id: 1, name: 'Bénévole' },
          { id: 2, name: 'VIP' },
        ]),
    });
    renderWithProviders(<ReferenceItemsList list={tagsList} onEdit={vi.fn()} />);
    await screen.findByText('ami');
    expect(screen.getAllByRole('row').map((row) => row.textContent?.replace(/EditRemove$/, ''))).toEqual([
      'ami',
      'Bénévole',
      'VIP',
    ]);
  });

  it('says No items exist! only once the empty list has loaded', async () => {
    signIn();
    mockFetch({ 'GET /api/tags': () => jsonResponse([]) });
    renderWithProviders(<ReferenceItemsList list={tagsList} onEdit={vi.fn()} />);
    expect(screen.queryByText('No items exist!')).not.toBeInTheDocument();
    expect(await screen.findByText('No items exist!')).toBeInTheDocument();
  });

  it('names the list in the error toast when it cannot be loaded', async () => {
    signIn();
    mockFetch({ 'GET /api/ctries': () => problemResponse(403, 'auth.forbidden') });
    renderWithProviders(<ReferenceItemsList list={countriesList} onEdit={vi.fn()} />);
    expect(
      await screen.findByText(
        'Houston - there was a problem getting the countries. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
  });

  it('deletes in two steps and says "Item ... was deleted successfully!"', async () => {
    signIn();
    let items = [
      { id: 1, name: 'France', order: 1 },
      { id: 9, name: 'Atlantide', order: 100 },
    ];
    mockFetch({
      'GET /api/ctries': () => jsonResponse(items),
      'DELETE /api/ctries/9': () => {
        items = items.filter((item) => item.id !== 9);
        return emptyResponse(204);
      },
    });
    const { user } = renderWithProviders(<ReferenceItemsList list={countriesList} onEdit={vi.fn()} />);
    await screen.findByText('Atlantide');
    await user.click(within(rowOf('Atlantide')).getByRole('button', { name: 'Remove' }));
    await user.click(within(rowOf('Atlantide')).getByRole('button', { name: 'Cancel' }));
    await user.click(within(rowOf('Atlantide')).getByRole('button', { name: 'Remove' }));
    await user.click(within(rowOf('Atlantide')).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(await screen.findByText("Item 'Atlantide' was deleted successfully!")).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByText('Atlantide')).not.toBeInTheDocument());
    expect(screen.getByText('France')).toBeInTheDocument();
  });

  it('refuses to delete an item still in use and gives the server’s reason in the toast', async () => {
    signIn();
    mockFetch({
      'GET /api/ctries': () => jsonResponse([{ id: 1, name: 'France', order: 1 }]),
      'DELETE /api/ctries/1': () =>
        problemResponse(409, 'reference_lists.in_use', {
          detail: "The country 'France' is used by 2 subscribers and cannot be deleted.",
        }),
    });
    const { user } = renderWithProviders(<ReferenceItemsList list={countriesList} onEdit={vi.fn()} />);
    await screen.findByText('France');
    await user.click(within(rowOf('France')).getByRole('button', { name: 'Remove' }));
    await user.click(within(rowOf('France')).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(
      await screen.findByText(
        "Houston - there was a problem deleting a country. The country 'France' is used by 2 subscribers and cannot be deleted. Please try again or contact your system administrator.",
      ),
    ).toBeInTheDocument();
    expect(within(rowOf('France')).getByRole('button', { name: 'Remove' })).toBeInTheDocument();
  });

  it('keeps other server details out of the delete toast', async () => {
    signIn();
    mockFetch({
      'GET /api/tags': () => jsonResponse([{ id: 1, name: 'VIP' }]),
      'DELETE /api/tags/1': () => problemResponse(500, 'internal', { detail: 'relation does not exist' }),
    });
    const { user } = renderWithProviders(<ReferenceItemsList list={tagsList} onEdit={vi.fn()} />);
    await screen.findByText('VIP');
    await user.click(within(rowOf('VIP')).getByRole('button', { name: 'Remove' }));
    await user.click(within(rowOf('VIP')).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem deleting a tag. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/relation does not exist/)).not.toBeInTheDocument();
  });

  it('shows the ISO code of the countries that have one', async () => {
    signIn();
    mockFetch({
      'GET /api/ctries': () =>
        jsonResponse([
          { id: 1, name: 'France', order: 1, isoCode: 'FR' },
          { id: 9, name: 'Atlantide', order: 100, isoCode: null },
        ]),
    });
    renderWithProviders(<ReferenceItemsList list={countriesList} onEdit={vi.fn()} />);
    await screen.findByText('France');
    expect(rowOf('France')).toHaveTextContent(/^FranceISO code FR/);
    expect(rowOf('Atlantide')).not.toHaveTextContent('ISO code');
  });

  it('shows a currency’s ISO code beside "name (symbol)"', async () => {
    signIn();
    mockFetch({
      'GET /api/currencies': () =>
        jsonResponse([{ id: 2, name: 'Swiss Franc', symbol: 'CHF', isoCode: 'CHF' }]),
    });
    renderWithProviders(<ReferenceItemsList list={currenciesList} onEdit={vi.fn()} />);
    expect(await screen.findByText('Swiss Franc (CHF)')).toBeInTheDocument();
    expect(rowOf('Swiss Franc (CHF)')).toHaveTextContent('ISO code CHF');
  });

  it('shows no ISO code for the lists without one', async () => {
    signIn();
    mockFetch({ 'GET /api/tags': () => jsonResponse([{ id: 1, name: 'VIP', isoCode: 'FR' }]) });
    renderWithProviders(<ReferenceItemsList list={tagsList} onEdit={vi.fn()} />);
    await screen.findByText('VIP');
    expect(rowOf('VIP')).not.toHaveTextContent('ISO code');
  });
});
