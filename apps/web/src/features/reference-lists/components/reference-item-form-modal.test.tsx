import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import {
  categoriesList,
  countriesList,
  currenciesList,
  paymentMethodsList,
  subscriptionTypesList,
  tagsList,
} from '../reference-list-configs.ts';
import { ReferenceItemFormModal } from './reference-item-form-modal.tsx';

describe('ReferenceItemFormModal', () => {
  it('titles the dialog Add New X with the list placeholder and a Save button', () => {
    mockFetch({});
    renderWithProviders(
      <ReferenceItemFormModal list={subscriptionTypesList} opened item={null} onClose={vi.fn()} />,
    );
    expect(screen.getByRole('dialog', { name: 'Add New Subscription Type' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Subscription type name.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Symbol')).not.toBeInTheDocument();
  });

  it('wants a name of at least 4 characters for subscription types', async () => {
    const requests = mockFetch({});
    const { user } = renderWithProviders(
      <ReferenceItemFormModal list={subscriptionTypesList} opened item={null} onClose={vi.fn()} />,
    );
    await user.type(screen.getByLabelText('Name'), 'Abc');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Please complete all the information!')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('asks currencies for a name and a symbol', async () => {
    const requests = mockFetch({});
    const { user } = renderWithProviders(
      <ReferenceItemFormModal list={currenciesList} opened item={null} onClose={vi.fn()} />,
    );
    expect(screen.getByRole('dialog', { name: 'Add New Currency' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Currency name.')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Currency symbol.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please complete all the information!')).toBeInTheDocument();
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Symbol is required')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('creates a currency with its symbol', async () => {
    signIn();
    const requests = mockFetch({
      'POST /api/currencies': () => jsonResponse({ id: 3, name: 'Pound sterling', symbol: '£' }, 201),
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(
      <ReferenceItemFormModal list={currenciesList} opened item={null} onClose={onClose} />,
    );
    await user.type(screen.getByLabelText('Name'), 'Pound sterling');
    await user.type(screen.getByLabelText('Symbol'), '£');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Item 'Pound sterling' was created successfully!")).toBeInTheDocument();
    expect(requests[0]?.body).toEqual({ name: 'Pound sterling', symbol: '£', isoCode: null });
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('accepts a one-letter country name (no minimum) and sends order 100', async () => {
    signIn();
    const requests = mockFetch({
      'POST /api/ctries': () => jsonResponse({ id: 300, name: 'X', order: 100 }, 201),
    });
    const { user } = renderWithProviders(
      <ReferenceItemFormModal list={countriesList} opened item={null} onClose={vi.fn()} />,
    );
    expect(screen.getByPlaceholderText('Country name.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'X');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Item 'X' was created successfully!")).toBeInTheDocument();
    expect(requests[0]?.body).toEqual({ name: 'X', order: 100, isoCode: null });
    expect(screen.queryByText('Name is required')).not.toBeInTheDocument();
  });

  it('still requires a country name', async () => {
    mockFetch({});
    const { user } = renderWithProviders(
      <ReferenceItemFormModal list={countriesList} opened item={null} onClose={vi.fn()} />,
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
  });

  it('requires a tag name, of any length', async () => {
    signIn();
    mockFetch({ 'POST /api/tags': () => jsonResponse({ id: 1, name: 'VIP' }, 201) });
    const { user } = renderWithProviders(
      <ReferenceItemFormModal list={tagsList} opened item={null} onClose={vi.fn()} />,
    );
    expect(screen.getByPlaceholderText('Tag name.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'VIP');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Item 'VIP' was created successfully!")).toBeInTheDocument();
  });

  it('edits under an Edit X title and an Update button, sending the id and the direct-debit flag', async () => {
    signIn();
    const answer = deferred<Response>();
    const requests = mockFetch({ 'PATCH /api/pmethods/3': () => answer.promise });
    const onClose = vi.fn();
    const { user } = renderWithProviders(
      <ReferenceItemFormModal
        list={paymentMethodsList}
        opened
        item={{ id: 3, name: 'Prélèvement', directDebit: true }}
        onClose={onClose}
      />,
    );
    expect(screen.getByRole('dialog', { name: 'Edit Payment Method' })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /^Direct debit/ })).toBeChecked();
    await user.type(screen.getByLabelText('Name'), ' SEPA');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.body).toEqual({ id: 3, name: 'Prélèvement SEPA', directDebit: true });
    expect(screen.getByRole('button', { name: 'Update' })).toHaveAttribute('data-loading');
    answer.resolve(jsonResponse({ id: 3, name: 'Prélèvement SEPA', directDebit: true }));
    expect(await screen.findByText("Item 'Prélèvement SEPA' was updated successfully!")).toBeInTheDocument();
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('shows a taken name under Name and stays open', async () => {
    signIn();
    mockFetch({
      'POST /api/ctries': () =>
        problemResponse(409, 'reference_lists.name_taken', {
          detail: "The country 'France' already exists.",
          errors: [{ path: 'name', message: 'A country with this name already exists.' }],
        }),
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(
      <ReferenceItemFormModal list={countriesList} opened item={null} onClose={onClose} />,
    );
    await user.type(screen.getByLabelText('Name'), 'france');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A country with this name already exists.')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'Add New Country' })).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('uses "creating a X" for a failed update too', async () => {
    signIn();
    mockFetch({ 'PATCH /api/tags/2': () => problemResponse(500, 'internal') });
    const { user } = renderWithProviders(
      <ReferenceItemFormModal list={tagsList} opened item={{ id: 2, name: 'VIP' }} onClose={vi.fn()} />,
    );
    expect(screen.getByRole('dialog', { name: 'Edit Tag' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem creating a tag. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
  });

  it('puts the cursor at the end of the name when it is focused', async () => {
    mockFetch({});
    renderWithProviders(
      <ReferenceItemFormModal
        list={categoriesList}
        opened
        item={{ id: 1, name: 'Bienfaiteur' }}
        onClose={vi.fn()}
      />,
    );
    const input = screen.getByLabelText<HTMLInputElement>('Name');
    act(() => input.blur());
    input.setSelectionRange(0, 0);
    act(() => input.focus());
    await vi.waitFor(() => expect(input.selectionStart).toBe('Bienfaiteur'.length));
    expect(input.selectionEnd).toBe('Bienfaiteur'.length);
  });

  it('closes on Escape and on the close icon, not on a click outside', async () => {
    mockFetch({});
    const onClose = vi.fn();
    const { user } = renderWithProviders(
      <ReferenceItemFormModal list={tagsList} opened item={null} onClose={onClose} />,
    );
    await user.click(document.body);
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByLabelText('Name'));
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('has no ISO code for the lists without one', () => {
    mockFetch({});
    renderWithProviders(<ReferenceItemFormModal list={tagsList} opened item={null} onClose={vi.fn()} />);
    expect(screen.queryByLabelText(/ISO code/)).not.toBeInTheDocument();
  });

  it('edits a country’s ISO code in capitals and sends it', async () => {
    signIn();
    const requests = mockFetch({
      'PATCH /api/ctries/7': () => jsonResponse({ id: 7, name: 'Groenland', order: 100, isoCode: 'GL' }),
    });
    const { user } = renderWithProviders(
      <ReferenceItemFormModal
        list={countriesList}
        opened
        item={{ id: 7, name: 'Groenland', order: 100, isoCode: null }}
        onClose={vi.fn()}
      />,
    );
    const isoCode = screen.getByLabelText('ISO code');
    expect(isoCode).toHaveValue('');
    expect(isoCode).toHaveAccessibleDescription(/ISO 3166-1 alpha-2, two capital letters/);
    await user.type(isoCode, 'gl');
    expect(isoCode).toHaveValue('GL');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText("Item 'Groenland' was updated successfully!")).toBeInTheDocument();
    expect(requests[0]?.body).toEqual({ id: 7, name: 'Groenland', order: 100, isoCode: 'GL' });
  });

  it('refuses a code that names no country under ISO code, before sending', async () => {
    const requests = mockFetch({});
    const { user } = renderWithProviders(
      <ReferenceItemFormModal list={countriesList} opened item={null} onClose={vi.fn()} />,
    );
    await user.type(screen.getByLabelText('Name'), 'Atlantide');
    await user.type(screen.getByLabelText('ISO code'), 'ZZ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This is not an ISO 3166-1 alpha-2 country code.')).toBeInTheDocument();
    expect(screen.getByLabelText('ISO code')).toHaveAttribute('aria-invalid', 'true');
    expect(requests).toHaveLength(0);
  });

  it('shows an ISO code another country has under ISO code and stays open', async () => {
    signIn();
    mockFetch({
      'POST /api/ctries': () =>
        problemResponse(409, 'reference_lists.iso_code_taken', {
          detail: "The country 'Suisse' already has the ISO code CH.",
          errors: [{ path: 'isoCode', message: 'Another country already has this ISO code.' }],
        }),
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(
      <ReferenceItemFormModal list={countriesList} opened item={null} onClose={onClose} />,
    );
    await user.type(screen.getByLabelText('Name'), 'Helvétie');
    await user.type(screen.getByLabelText('ISO code'), 'CH');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText(/Another country already has this ISO code\./)).not.toHaveLength(0);
    expect(screen.getByLabelText('ISO code')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('ISO code')).toHaveFocus();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('sends a currency’s ISO 4217 code, and refuses one of the wrong length', async () => {
    signIn();
    const requests = mockFetch({
      'POST /api/currencies': () =>
        jsonResponse({ id: 3, name: 'Pound sterling', symbol: '£', isoCode: 'GBP' }, 201),
    });
    const { user } = renderWithProviders(
      <ReferenceItemFormModal list={currenciesList} opened item={null} onClose={vi.fn()} />,
    );
    await user.type(screen.getByLabelText('Name'), 'Pound sterling');
    await user.type(screen.getByLabelText('Symbol'), '£');
    await user.type(screen.getByLabelText('ISO code'), 'gb');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('The ISO code is three capital letters, e.g. EUR or CHF.'),
    ).toBeInTheDocument();
    expect(requests).toHaveLength(0);
    await user.type(screen.getByLabelText('ISO code'), 'p');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Item 'Pound sterling' was created successfully!")).toBeInTheDocument();
    expect(requests[0]?.body).toEqual({ name: 'Pound sterling', symbol: '£', isoCode: 'GBP' });
  });
});
