import type { Subscriber } from '@back-office/contract/subscribers';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useSearchParams } from 'react-router';
import { AppProvider } from '../../../app/provider.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import type { SubscriberLookups } from '../subscriber-form-values.ts';

/** Test data and rendering for the subscriber feature's tests (not used by the app). */

export const LOOKUPS: SubscriberLookups = {
  categories: [{ id: 3, name: 'Donateurs' }],
  subscriptionTypes: [{ id: 4, name: 'Annuel' }],
  currencies: [
    { id: 1, name: 'Swiss Franc', symbol: 'CHF' },
    { id: 2, name: 'EURO', symbol: '€' },
  ],
  tags: [
    { id: 7, name: 'Bénévole' },
    { id: 8, name: 'Presse' },
  ],
  countries: [
    { id: 10, name: 'France' },
    { id: 11, name: 'Suisse' },
  ],
  paymentMethods: [{ id: 5, name: 'Chèque' }],
};

export const BLANK: Subscriber = {
  id: 0,
  version: 0,
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
  currencyId: 0,
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
  addedOn: null,
  hidden: false,
};

export const ZOE: Subscriber = {
  ...BLANK,
  id: 42,
  version: 3,
  title: 'Mme',
  firstName: 'Zoé',
  lastName: 'Dupont',
  email: 'zoe@example.org',
  address1: '12 rue du Lac',
  town: 'Lausanne',
  postcode: '1003',
  countryId: 11,
  currencyId: 1,
  tags: ['Bénévole'],
  addedOn: '2025-03-07T09:30:00.000Z',
};

/** Shows the subscriber params a donations or sales link carried. */
function SubscriberParams({ screen }: { screen: string }) {
  const [params] = useSearchParams();
  return (
    <p>
      {screen} of {params.get('subid')} {params.get('fn')} {params.get('ln')} {params.get('sy')}
    </p>
  );
}

/**
 * Renders `ui` at `path` inside the app's providers and a data router (the unsaved-changes guard needs
 * one), with a second screen at /elsewhere and the subscribers list at /subscribers.
 */
export function renderInDataRouter(ui: ReactElement, path: string, pattern = '/subscriber/:id') {
  const user = userEvent.setup();
  const router = createMemoryRouter(
    [
      { path: pattern, element: ui },
      { path: '/elsewhere', element: <p>Elsewhere</p> },
      { path: '/subscribers', element: <p>Subscribers list</p> },
      { path: '/donations', element: <SubscriberParams screen="Donations" /> },
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <AppProvider env="test" queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { user, router, ...result };
}
