import type { Plan } from '@back-office/contract/plans';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import type { PlanMandateOption } from './plan-form-modal.tsx';
import { PlansSection } from './plans-section.tsx';

const MANDATES: PlanMandateOption[] = [
  { id: 7, rum: 'RUM-7', status: 'active', type: 'recurring' },
  { id: 8, rum: 'ONCE-8', status: 'active', type: 'oneOff' },
  { id: 9, rum: 'GONE-9', status: 'revoked', type: 'recurring' },
];

const MONTHLY: Plan = {
  id: 3,
  subscriberId: 42,
  mandateId: 7,
  mandateRum: 'RUM-7',
  amount: 1234.5,
  frequency: 'monthly',
  dayOfMonth: 5,
  startOn: '2026-01-05',
  endOn: '2026-12-05',
  status: 'active',
};

const PAUSED: Plan = {
  id: 4,
  subscriberId: 42,
  mandateId: 7,
  mandateRum: 'RUM-7',
  amount: 25,
  frequency: 'halfYearly',
  dayOfMonth: 28,
  startOn: '2025-03-01',
  status: 'paused',
};

function renderSection(onChanged = vi.fn()) {
  return {
    ...renderWithProviders(<PlansSection subscriberId={42} mandates={MANDATES} onChanged={onChanged} />),
    onChanged,
  };
}

describe('PlansSection', () => {
  it('lists the plans with French amounts and dates, frequency in words, RUM and status', async () => {
    signIn();
    mockFetch({ 'GET /api/subscribers/42/plans': () => jsonResponse([MONTHLY, PAUSED]) });
    renderSection();
    const table = await screen.findByRole('table', { name: 'Recurring gifts' });
    const [, first, second] = within(table).getAllByRole('row');
    if (!first || !second) throw new Error('rows missing');
    expect(within(first).getByText(/^1\s234,50 €$/)).toBeInTheDocument();
    expect(within(first).getByText('Monthly')).toBeInTheDocument();
    expect(within(first).getByText('05/01/2026')).toBeInTheDocument();
    expect(within(first).getByText('05/12/2026')).toBeInTheDocument();
    expect(within(first).getByText('RUM-7')).toBeInTheDocument();
    expect(within(first).getByText('Active')).toBeInTheDocument();
    expect(within(second).getByText('Every six months')).toBeInTheDocument();
    expect(within(second).getByText('—')).toBeInTheDocument();
    expect(within(second).getByText('Paused')).toBeInTheDocument();
    expect(
      within(second).getByRole('button', { name: 'Resume the gift of 25,00 € every six months' }),
    ).toBeEnabled();
  });

  it('adds a plan under an active recurring mandate, showing the server refusal under the field', async () => {
    signIn();
    let refuse = true;
    const requests = mockFetch({
      'GET /api/subscribers/42/plans': () => jsonResponse([]),
      'GET /api/cats': () => jsonResponse([{ id: 2, name: 'Parrainage' }]),
      'POST /api/subscribers/42/plans': () =>
        refuse
          ? problemResponse(409, 'plans.mandate_unusable', {
              detail: 'The mandate RUM-7 is revoked.',
              errors: [{ path: 'mandateId', message: 'Choose an active mandate.' }],
            })
          : jsonResponse({ ...MONTHLY, amount: 25.5 }, 201),
    });
    const { user, onChanged } = renderSection();
    expect(await screen.findByText('No recurring gift for this subscriber.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add a recurring gift' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a recurring gift' });
    const mandate = within(dialog).getByLabelText(/Mandate/);
    // Only the active recurring mandate is offered, chosen since it is the only one.
    expect(
      within(mandate)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose a mandate', 'RUM-7']);
    expect(mandate).toHaveValue('7');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The amount is required.')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/Amount/), '25,5');
    await user.selectOptions(within(dialog).getByLabelText(/Frequency/), 'quarterly');
    await user.selectOptions(within(dialog).getByLabelText(/Day of the month/), '12');
    await within(dialog).findByRole('option', { name: 'Parrainage' });
    await user.selectOptions(within(dialog).getByLabelText(/Category/), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findAllByText('Choose an active mandate.')).length).toBeGreaterThan(0);

    refuse = false;
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledOnce());
    expect(requests.filter((request) => request.method === 'POST').at(-1)?.body).toEqual({
      amount: 25.5,
      frequency: 'quarterly',
      dayOfMonth: 12,
      startOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      endOn: null,
      mandateId: 7,
      categoryId: 2,
    });
  });

  it('pauses, resumes and ends a plan after confirmation', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/subscribers/42/plans': () => jsonResponse([MONTHLY, PAUSED]),
      'PATCH /api/plans/3': () => jsonResponse({ ...MONTHLY, status: 'paused' }),
      'PATCH /api/plans/4': () => jsonResponse({ ...PAUSED, status: 'active' }),
    });
    const { user, onChanged } = renderSection();
    await user.click(await screen.findByRole('button', { name: /^Pause the gift of 1\s234,50 € monthly$/ }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledOnce());
    await user.click(screen.getByRole('button', { name: 'Resume the gift of 25,00 € every six months' }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledTimes(2));
    await user.click(screen.getByRole('button', { name: /^End the gift of 1\s234,50 € monthly$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'End the recurring gift' });
    await user.click(within(dialog).getByRole('button', { name: 'End the gift' }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledTimes(3));
    expect(requests.filter((request) => request.method === 'PATCH').map((request) => request.body)).toEqual([
      { status: 'paused' },
      { status: 'active' },
      { status: 'ended' },
    ]);
  });
});
