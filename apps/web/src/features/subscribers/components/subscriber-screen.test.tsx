import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { signIn } from '../../../testing/session.ts';
import { SubscriberScreen } from './subscriber-screen.tsx';
import { BLANK, LOOKUPS, renderInDataRouter, ZOE } from './subscriber-test-data.tsx';

const lookupRoutes = {
  'GET /api/cats': () => jsonResponse(LOOKUPS.categories),
  'GET /api/subs': () => jsonResponse(LOOKUPS.subscriptionTypes),
  'GET /api/currencies': () => jsonResponse(LOOKUPS.currencies),
  'GET /api/tags': () => jsonResponse(LOOKUPS.tags),
  'GET /api/ctries': () => jsonResponse(LOOKUPS.countries),
  'GET /api/pmethods': () => jsonResponse(LOOKUPS.paymentMethods),
};

describe('SubscriberScreen', { timeout: 20_000 }, () => {
  it('asks the server for a blank record added by the signed-in user, with EURO preselected', async () => {
    signIn();
    mockFetch({ ...lookupRoutes, 'GET /api/subscribers/new': () => jsonResponse(BLANK) });
    renderInDataRouter(<SubscriberScreen id="new" />, '/subscriber/new');
    expect(await screen.findByRole('heading', { name: 'New Subscriber' })).toBeInTheDocument();
    expect(screen.getByLabelText('Added By')).toHaveValue('Ada Admin');
    expect(screen.getByRole('combobox', { name: /^Currency/ })).toHaveValue('EURO');
    expect(screen.queryByRole('button', { name: 'Actions' })).not.toBeInTheDocument();
  });

  it('shows a saved subscriber with its heading', async () => {
    signIn();
    mockFetch({ ...lookupRoutes, 'GET /api/subscribers/42': () => jsonResponse(ZOE) });
    renderInDataRouter(<SubscriberScreen id={42} />, '/subscriber/42');
    expect(await screen.findByRole('heading', { name: 'Mme Zoé Dupont' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: /^Currency/ })).toHaveValue('Swiss Franc');
    expect(screen.getByRole('button', { name: 'Actions' })).toBeInTheDocument();
  });

  it('goes to the subscribers list when the subscriber does not exist', async () => {
    signIn();
    mockFetch({
      ...lookupRoutes,
      'GET /api/subscribers/404': () => problemResponse(404, 'subscribers.not_found'),
    });
    const { router } = renderInDataRouter(<SubscriberScreen id={404} />, '/subscriber/404');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/subscribers'));
    expect(
      await screen.findByText(
        'Houston - there was a problem getting the subscriber. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
  });
});
