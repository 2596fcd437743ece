import type { SubscriberMerge } from '@back-office/contract/duplicates';
import type { Subscriber } from '@back-office/contract/subscribers';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProvider } from '../../../app/provider.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import {
  jsonResponse,
  mockFetch,
  problemResponse,
  type RecordedRequest,
} from '../../../testing/fetch-mock.ts';
import { signIn } from '../../../testing/session.ts';
import { MergeScreen } from './merge-screen.tsx';

const BLANK: Subscriber = {
  id: 0,
  version: 1,
  title: '',
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  mobile: '',
  fax: '',
  address1: '',
  address2: '',
  address3: '',
  town: '',
  postcode: '',
  billingAddress: '',
  notes: '',
  association: '',
  inactive: false,
  inactiveReason: '',
  rum: '',
  countryId: 0,
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
  addedOn: '2025-03-07T09:30:00.000Z',
  hidden: false,
};

/** The older record: no phone, in Suisse. */
const ZOE: Subscriber = {
  ...BLANK,
  id: 42,
  firstName: 'Zoé',
  lastName: 'Dupont',
  email: 'zoe@example.org',
  town: 'Lausanne',
  postcode: '1003',
  countryId: 11,
};

/** The newer one: a phone, another email, in France, a start date. */
const ZOE_AGAIN: Subscriber = {
  ...ZOE,
  id: 57,
  email: 'zoe.dupont@example.org',
  phone: '021 123 45 67',
  countryId: 10,
  startDate: '2026-01-05',
};

const MERGED: SubscriberMerge = {
  id: 3,
  keepId: 42,
  mergeId: 57,
  moved: { donations: 2, sales: 1, receipts: 0, history: 4, tags: 1 },
  mergedAt: '2026-03-07T12:00:00.000Z',
  mergedBy: 'Ada Admin',
  undoUntil: '2026-04-06T12:00:00.000Z',
  undoneAt: null,
};

function lookups() {
  return {
    'GET /api/cats': () => jsonResponse([]),
    'GET /api/subs': () => jsonResponse([]),
    'GET /api/pmethods': () => jsonResponse([]),
    'GET /api/currencies': () => jsonResponse([{ id: 1, name: 'Swiss Franc', symbol: 'CHF' }]),
    'GET /api/ctries': () =>
      jsonResponse([
        { id: 10, name: 'France' },
        { id: 11, name: 'Suisse' },
      ]),
    'GET /api/subscribers/42': () => jsonResponse(ZOE),
    'GET /api/subscribers/57': () => jsonResponse(ZOE_AGAIN),
  };
}

function SubscriberPage() {
  return <p>Subscriber page {useParams().id}</p>;
}

function renderMerge(path = '/duplicates/merge?keep=42&merge=57') {
  const user = userEvent.setup();
  const router = createMemoryRouter(
    [
      { path: '/duplicates/merge', element: <MergeScreen /> },
      { path: '/duplicates', element: <p>Duplicates list</p> },
      { path: '/subscriber/:id', element: <SubscriberPage /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProvider env="test" queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { user, router };
}

function group(name: string) {
  return screen.getByRole('radiogroup', { name });
}

function posts(requests: RecordedRequest[]) {
  return requests.filter((request) => request.method === 'POST');
}

describe('MergeScreen', () => {
  it('compares both records with defaults, sends the chosen fields, then offers Undo', async () => {
    signIn();
    const requests = mockFetch({
      ...lookups(),
      'POST /api/subscribers/merge': () => jsonResponse(MERGED),
      'POST /api/subscribers/merge/57/undo': () =>
        jsonResponse({ ...MERGED, undoneAt: '2026-03-07T12:01:00.000Z' }),
    });
    const { user, router } = renderMerge();
    expect(await screen.findByRole('heading', { name: 'Merge subscribers', level: 1 })).toBeInTheDocument();
    await screen.findByRole('radiogroup', { name: 'Email' });
    expect(screen.getByRole('heading', { level: 2, name: /Zoé Dupont \(no\. 42\)/ })).toBeInTheDocument();

    // Only the fields that differ get a choice; the reference ids and dates read as the form shows them.
    const labelOf = (element: HTMLElement) =>
      document.getElementById(element.getAttribute('aria-labelledby') ?? '')?.textContent;
    expect(screen.getAllByRole('radiogroup').map(labelOf)).toEqual([
      'Country',
      'Phone',
      'Email',
      'Start Date',
    ]);
    expect(within(group('Country')).getByRole('radio', { name: 'Suisse' })).toBeChecked();
    expect(within(group('Country')).getByRole('radio', { name: 'France' })).not.toBeChecked();
    // The kept record has no phone nor start date: the other's are taken by default.
    expect(within(group('Phone')).getByRole('radio', { name: '021 123 45 67' })).toBeChecked();
    expect(within(group('Phone')).getByRole('radio', { name: '(empty)' })).not.toBeChecked();
    expect(within(group('Start Date')).getByRole('radio', { name: '05/01/2026' })).toBeChecked();
    expect(within(group('Email')).getByRole('radio', { name: 'zoe@example.org' })).toBeChecked();
    const alike = screen.getByRole('region', { name: 'Same on both' });
    expect(alike).toHaveTextContent('Lausanne');

    await user.click(within(group('Email')).getByRole('radio', { name: 'zoe.dupont@example.org' }));
    const summary = screen.getByRole('region', { name: 'What the merge does' });
    expect(summary).toHaveTextContent('taking 3 values from Zoé Dupont (no. 57): Phone, Email, Start Date.');

    await user.click(screen.getByRole('button', { name: 'Merge…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Merge these subscribers?' });
    await user.click(within(dialog).getByRole('button', { name: 'Merge' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/subscriber/42'));
    expect(posts(requests)[0]?.body).toEqual({
      keepId: 42,
      mergeId: 57,
      fields: { countryId: 'keep', phone: 'merge', email: 'merge', startDate: 'merge' },
    });
    const toast = await screen.findByText(
      'Zoé Dupont (no. 57) was merged into Zoé Dupont (no. 42): 2 donations, 1 sale, 4 history entries and 1 tag moved.',
    );
    expect(await screen.findByText('Subscriber page 42')).toBeInTheDocument();

    await user.click(
      within(toast.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Undo' }),
    );
    expect(await screen.findByText(/The merge was undone/)).toBeInTheDocument();
    expect(posts(requests).map((request) => request.path)).toEqual([
      '/api/subscribers/merge',
      '/api/subscribers/merge/57/undo',
    ]);
    await waitFor(() => expect(router.state.location.search).toBe('?keep=42&merge=57'));
    expect(router.state.location.pathname).toBe('/duplicates/merge');
  });

  it('swaps the kept record, keeping the values chosen', async () => {
    signIn();
    const requests = mockFetch({
      ...lookups(),
      'POST /api/subscribers/merge': () => jsonResponse({ ...MERGED, keepId: 57, mergeId: 42 }),
    });
    const { user, router } = renderMerge();
    await screen.findByRole('radiogroup', { name: 'Email' });
    await user.click(within(group('Email')).getByRole('radio', { name: 'zoe.dupont@example.org' }));
    await user.click(screen.getByRole('button', { name: 'Swap' }));
    expect(router.state.location.search).toBe('?keep=57&merge=42');
    await waitFor(() =>
      expect(screen.getAllByRole('heading', { level: 2 })[0]).toHaveTextContent('Zoé Dupont (no. 57)'),
    );
    // Email stays the one chosen, now the kept record's; the kept record has a phone now: it is kept.
    expect(within(group('Email')).getByRole('radio', { name: 'zoe.dupont@example.org' })).toBeChecked();
    expect(within(group('Phone')).getByRole('radio', { name: '021 123 45 67' })).toBeChecked();
    expect(within(group('Country')).getByRole('radio', { name: 'France' })).toBeChecked();

    // The keyboard moves between the two values of a field.
    within(group('Country')).getByRole('radio', { name: 'France' }).focus();
    await user.keyboard('{ArrowDown}');
    expect(within(group('Country')).getByRole('radio', { name: 'Suisse' })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Merge…' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Merge' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/subscriber/57'));
    expect(posts(requests)[0]?.body).toEqual({
      keepId: 57,
      mergeId: 42,
      fields: { countryId: 'merge', phone: 'keep', email: 'keep', startDate: 'keep' },
    });
  });

  it("shows the server's reason when the merge is refused, and stays", async () => {
    signIn();
    mockFetch({
      ...lookups(),
      'POST /api/subscribers/merge': () =>
        problemResponse(404, 'duplicates.not_found', { detail: 'No subscriber has id 57.' }),
    });
    const { user, router } = renderMerge();
    await screen.findByRole('radiogroup', { name: 'Email' });
    await user.click(screen.getByRole('button', { name: 'Merge…' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Merge' }));
    const refusal = await screen.findByRole('alert', { name: 'The subscribers were not merged' });
    expect(refusal).toHaveTextContent('No subscriber has id 57.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/duplicates/merge');
  });

  it('says when a subscriber cannot be read, or was already merged into another', async () => {
    signIn();
    mockFetch({
      ...lookups(),
      'GET /api/subscribers/57': () =>
        problemResponse(404, 'subscribers.not_found', { detail: 'No subscriber has id 57.' }),
      'GET /api/subscribers/58': () => jsonResponse(ZOE),
    });
    renderMerge();
    const alert = await screen.findByRole('alert', { name: 'These subscribers cannot be merged' });
    expect(alert).toHaveTextContent('No subscriber has id 57.');

    const second = renderMerge('/duplicates/merge?keep=58&merge=57');
    await second.router.navigate('/duplicates/merge?keep=58&merge=42');
    const merged = await screen.findByRole('alert', { name: 'Already merged' });
    expect(merged).toHaveTextContent('Subscriber no. 58 was already merged into Zoé Dupont (no. 42)');
  });
});
