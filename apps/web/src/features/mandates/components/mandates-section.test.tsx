import type { Mandate } from '@back-office/contract/mandates';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { emptyResponse, jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { MandatesSection } from './mandates-section.tsx';

const ACTIVE: Mandate = {
  id: 7,
  subscriberId: 42,
  rum: 'RUM-000042-20250115',
  iban: 'FR7630006000011234567890189',
  bic: 'BNPAFRPP',
  signedOn: '2025-01-15',
  type: 'recurring',
  status: 'active',
};

const REVOKED_USED: Mandate = {
  id: 3,
  subscriberId: 42,
  rum: 'OLD-1',
  iban: 'CH9300762011623852957',
  signedOn: '2020-03-01',
  type: 'oneOff',
  status: 'revoked',
  lastCollectedOn: '2020-04-05',
  revokedOn: '2021-01-02',
  revokedReason: 'Account closed',
};

const SUSPENDED: Mandate = {
  id: 9,
  subscriberId: 42,
  rum: 'RUM-000042-20240301',
  iban: 'DE89370400440532013000',
  signedOn: '2024-03-01',
  type: 'recurring',
  status: 'suspended',
  lastCollectedOn: '2031-02-23',
  suspendedOn: '2031-03-02',
  suspendedReason: 'Returned by the bank: AC04 account closed',
};

function renderSection(onChanged = vi.fn()) {
  return { ...renderWithProviders(<MandatesSection subscriberId={42} onChanged={onChanged} />), onChanged };
}

describe('MandatesSection', () => {
  it('lists the mandates with the IBAN in groups of 4, French dates, type and status', async () => {
    signIn();
    mockFetch({ 'GET /api/subscribers/42/mandates': () => jsonResponse([ACTIVE, REVOKED_USED]) });
    renderSection();
    const active = await screen.findByRole('listitem', { name: 'Mandate RUM-000042-20250115' });
    expect(within(active).getByText('FR76 3000 6000 0112 3456 7890 189 · BIC BNPAFRPP')).toBeInTheDocument();
    expect(within(active).getByText('Recurring · signed on 15/01/2025')).toBeInTheDocument();
    expect(within(active).getByText('Active')).toBeInTheDocument();
    expect(within(active).getByRole('button', { name: 'Edit mandate RUM-000042-20250115' })).toBeEnabled();
    expect(within(active).getByRole('button', { name: 'Remove' })).toBeEnabled();

    const revoked = screen.getByRole('listitem', { name: 'Mandate OLD-1' });
    expect(within(revoked).getByText('Revoked')).toBeInTheDocument();
    expect(within(revoked).getByText('Revoked on 02/01/2021: Account closed')).toBeInTheDocument();
    expect(
      within(revoked).getByText('One-off · signed on 01/03/2020 · last collected on 05/04/2020'),
    ).toBeInTheDocument();
    // A used, revoked mandate is kept as it is: no action.
    expect(within(revoked).queryByRole('button')).toBeNull();
  });

  it('adds a mandate with the contract rules, showing a RUM taken under the field', async () => {
    signIn();
    let taken = true;
    const requests = mockFetch({
      'GET /api/subscribers/42/mandates': () => jsonResponse([]),
      'POST /api/subscribers/42/mandates': () =>
        taken
          ? problemResponse(409, 'mandates.rum_taken', {
              detail: 'The RUM ABO-1 is already used by another mandate.',
              errors: [{ path: 'rum', message: 'The RUM ABO-1 is already used by another mandate.' }],
            })
          : jsonResponse({ ...ACTIVE, rum: 'ABO-2' }, 201),
    });
    const { user, onChanged } = renderSection();
    expect(await screen.findByText('No SEPA mandate for this subscriber.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add a mandate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a mandate' });
    await user.type(within(dialog).getByLabelText(/RUM/), 'ABO_1');
    await user.type(within(dialog).getByLabelText(/IBAN/), 'fr76 3000 6000 0112 3456 7890 188');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/The RUM is 1 to 35 characters/)).toBeInTheDocument();
    expect(within(dialog).getByText('This IBAN is not valid.')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText(/RUM/));
    await user.type(within(dialog).getByLabelText(/RUM/), 'ABO-1');
    await user.clear(within(dialog).getByLabelText(/IBAN/));
    await user.type(within(dialog).getByLabelText(/IBAN/), 'fr76 3000 6000 0112 3456 7890 189');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      (await within(dialog).findAllByText('The RUM ABO-1 is already used by another mandate.')).length,
    ).toBeGreaterThan(0);

    taken = false;
    await user.clear(within(dialog).getByLabelText(/RUM/));
    await user.type(within(dialog).getByLabelText(/RUM/), 'ABO-2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledOnce());
    const posted = requests.filter((request) => request.method === 'POST').at(-1);
    expect(posted?.body).toMatchObject({
      rum: 'ABO-2',
      iban: 'FR7630006000011234567890189',
      bic: null,
      type: 'recurring',
      signedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it('revokes with a reason, and deletes a mandate never used', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/subscribers/42/mandates': () => jsonResponse([ACTIVE]),
      'POST /api/mandates/7/revoke': () => jsonResponse({ ...ACTIVE, status: 'revoked' }),
      'DELETE /api/mandates/7': () => emptyResponse(),
    });
    const { user, onChanged } = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Revoke mandate RUM-000042-20250115' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the mandate' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByText('The reason is required.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Reason/), 'Asked by letter');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledOnce());
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      reason: 'Asked by letter',
    });

    await user.click(screen.getByRole('button', { name: 'Remove' }));
    await user.click(screen.getByRole('button', { name: 'CONFIRM DELETE' }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledTimes(2));
    expect(requests.some((request) => request.method === 'DELETE')).toBe(true);
  });

  it('shows when and why the bank suspended a mandate, and lets it be revoked but not edited', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/subscribers/42/mandates': () => jsonResponse([SUSPENDED]),
      'POST /api/mandates/9/revoke': () =>
        jsonResponse({ ...SUSPENDED, status: 'revoked', revokedOn: '2031-03-05', revokedReason: 'Closed' }),
    });
    const { user, onChanged } = renderSection();
    const card = await screen.findByRole('listitem', { name: 'Mandate RUM-000042-20240301' });
    expect(within(card).getByText('Suspended')).toBeInTheDocument();
    expect(
      within(card).getByText('Suspended on 02/03/2031: Returned by the bank: AC04 account closed'),
    ).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /Edit mandate/ })).toBeNull();
    // Used: it is kept, not deleted.
    expect(within(card).queryByRole('button', { name: 'Remove' })).toBeNull();

    await user.click(within(card).getByRole('button', { name: 'Revoke mandate RUM-000042-20240301' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the mandate' });
    await user.type(within(dialog).getByLabelText(/Reason/), 'Closed');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledOnce());
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({ reason: 'Closed' });
  });
});
