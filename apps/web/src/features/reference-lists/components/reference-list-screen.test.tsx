import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '../../../testing/fetch-mock.ts';
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
import { ReferenceListScreen } from './reference-list-screen.tsx';

const SCREENS = [
  { list: subscriptionTypesList, heading: 'Subscription Types', add: 'Add New Subscription Type' },
  { list: categoriesList, heading: 'Categories', add: 'Add New Category' },
  { list: countriesList, heading: 'Countries', add: 'Add New Country' },
  { list: paymentMethodsList, heading: 'Payment Methods', add: 'Add New Payment Method' },
  { list: currenciesList, heading: 'Currencies', add: 'Add New Currency' },
  { list: tagsList, heading: 'Tags', add: 'Add New Tag' },
];

describe('ReferenceListScreen', () => {
  it.each(SCREENS)('shows the $heading heading and opens "$add"', async ({ list, heading, add }) => {
    signIn();
    mockFetch({ [`GET ${list.apiPath}`]: () => jsonResponse([]) });
    const { user } = renderWithProviders(<ReferenceListScreen list={list} />);
    expect(screen.getByRole('heading', { name: heading })).toBeInTheDocument();
    expect(await screen.findByText('No items exist!')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: add }));
    expect(await screen.findByRole('dialog', { name: add })).toBeInTheDocument();
  });

  it('reloads the list in the server’s order after a create', async () => {
    signIn();
    let tags = [{ id: 1, name: 'VIP' }];
    const requests = mockFetch({
      'GET /api/tags': () => jsonResponse(tags),
      'POST /api/tags': () => {
        tags = [{ id: 2, name: 'ami' }, ...tags];
        return jsonResponse({ id: 2, name: 'ami' }, 201);
      },
    });
    const { user } = renderWithProviders(<ReferenceListScreen list={tagsList} />);
    await screen.findByText('VIP');
    await user.click(screen.getByRole('button', { name: 'Add New Tag' }));
    await user.type(await screen.findByLabelText('Name'), 'ami');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Item 'ami' was created successfully!")).toBeInTheDocument();
    await screen.findByText('ami');
    const rows = screen.getAllByRole('row').map((row) => row.textContent?.replace(/EditRemove$/, ''));
    expect(rows).toEqual(['ami', 'VIP']);
    expect(requests.filter((request) => request.method === 'GET')).toHaveLength(2);
  });
});
