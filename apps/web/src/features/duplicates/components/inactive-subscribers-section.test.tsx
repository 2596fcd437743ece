import type { InactiveSubscriber } from '@back-office/contract/subscribers';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, type RecordedRequest } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { InactiveSubscribersSection } from './inactive-subscribers-section.tsx';

const GET = 'GET /api/subscribers/inactive';

function subscriber(n: number): InactiveSubscriber {
  return { id: n, name: `Zoé Ancienne${n}`, lastActivity: '2021-02-03', email: `zoe${n}@example.org` };
}

/** The answer to a page of `count` inactive subscribers. */
function pagesOf(count: number) {
  const all = Array.from({ length: count }, (_, index) => subscriber(index + 1));
  return (request: RecordedRequest): Response => {
    const from = Number(request.query.get('listfrom'));
    const length = Number(request.query.get('listlength'));
    return jsonResponse({ count, years: 3, models: all.slice(from - 1, from - 1 + length) });
  };
}

describe('InactiveSubscribersSection', () => {
  it('explains the rule, links each subscriber to their record with the French day, and pages 50 at a time', async () => {
    signIn();
    const requests = mockFetch({ [GET]: pagesOf(60) });
    const { user } = renderWithProviders(<InactiveSubscribersSection />, { path: '/duplicates' });
    const table = await screen.findByRole('table', { name: 'Inactive subscribers' });
    expect(
      screen.getByText(
        'Subscribers whose record, donations and sales have not changed for 3 years (set in Settings), oldest first: 60. Check whether you still need their data, else anonymise them.',
      ),
    ).toBeInTheDocument();
    const first = within(table).getByRole('link', { name: /Zoé Ancienne1 \(no\. 1\)/ });
    expect(first).toHaveAttribute('href', '/subscriber/1');
    expect(first).toHaveAttribute('target', '_blank');
    expect(within(table).getAllByText('03/02/2021')).toHaveLength(50);
    expect(within(table).getByText('zoe1@example.org')).toBeInTheDocument();

    const pages = screen.getByRole('navigation', { name: 'Pages of the inactive subscribers' });
    await user.click(within(pages).getByRole('button', { name: '2' }));
    expect(
      await within(screen.getByRole('table', { name: 'Inactive subscribers' })).findByRole('link', {
        name: /Zoé Ancienne51 /,
      }),
    ).toBeInTheDocument();
    expect(requests.map((request) => request.query.get('listfrom'))).toEqual(['1', '51']);
  });

  it('says when nobody is inactive', async () => {
    signIn();
    mockFetch({ [GET]: () => jsonResponse({ count: 0, years: 1, models: [] }) });
    renderWithProviders(<InactiveSubscribersSection />, { path: '/duplicates' });
    expect(await screen.findByText('No inactive subscribers.')).toBeInTheDocument();
    expect(screen.getByText(/have not changed for 1 year \(set in Settings\)/)).toBeInTheDocument();
  });
});
