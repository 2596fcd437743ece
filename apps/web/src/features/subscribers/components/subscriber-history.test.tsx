import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, jsonResponse, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { SubscriberHistory } from './subscriber-history.tsx';
import { ZOE } from './subscriber-test-data.tsx';

describe('SubscriberHistory', () => {
  it('shows Loading..., then the entries with YYYY-MM-DD HH:mm dates under a title linking back', async () => {
    signIn();
    const answer = deferred<Response>();
    mockFetch({
      'GET /api/subscribers/42/history': () => answer.promise,
      'GET /api/subscribers/42': () => jsonResponse(ZOE),
    });
    renderWithProviders(<SubscriberHistory id={42} />);
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Zoé Dupont' })).toHaveAttribute('href', '/subscriber/42');
    expect(screen.getByRole('heading', { name: 'History for Zoé Dupont' })).toBeInTheDocument();
    const date = new Date(2025, 2, 7, 9, 5);
    answer.resolve(
      jsonResponse([
        { description: "Changed town from 'Lyon' to 'Genève'.", user: 'Ada Admin', date: date.toISOString() },
      ]),
    );
    expect(await screen.findByText("Changed town from 'Lyon' to 'Genève'.")).toBeInTheDocument();
    expect(screen.getByText('2025-03-07 09:05')).toBeInTheDocument();
    expect(screen.getByText('Ada Admin')).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
  });

  it('says No history currently exists. when empty', async () => {
    signIn();
    mockFetch({ 'GET /api/subscribers/42/history': () => jsonResponse([]) });
    renderWithProviders(<SubscriberHistory id={42} name="Zoé Dupont" />);
    expect(await screen.findByText('No history currently exists.')).toBeInTheDocument();
  });
});
