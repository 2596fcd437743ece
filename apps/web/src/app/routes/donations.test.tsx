import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp } from '../../testing/render.tsx';
import { signIn } from '../../testing/session.ts';
import { subscriberFromParams } from './donations.tsx';

describe('Donations route (part 2 §2 Routes: donations; optional subid, fn, ln, sy)', () => {
  it('reads the subscriber from the params, or none', () => {
    expect(subscriberFromParams(new URLSearchParams('subid=12&fn=Jean&ln=Dupont&sy=CHF'))).toEqual({
      id: 12,
      firstName: 'Jean',
      lastName: 'Dupont',
      symbol: 'CHF',
    });
    expect(subscriberFromParams(new URLSearchParams(''))).toBeNull();
    expect(subscriberFromParams(new URLSearchParams('subid=abc'))).toBeNull();
  });

  it("opens one subscriber's donations and searches them at once", async () => {
    signIn();
    mockFetch({
      'GET /api/ctries': () => jsonResponse([]),
      'GET /api/cats': () => jsonResponse([]),
      'GET /api/donations': () => jsonResponse({ count: 0, countIsExact: true, models: [] }),
    });
    renderApp('/donations?subid=12&fn=Jean&ln=Dupont&sy=%E2%82%AC');
    expect(await screen.findByRole('heading', { name: 'Donations for Jean Dupont' })).toBeInTheDocument();
    expect(await screen.findByText('No donations from this subscriber yet.')).toBeInTheDocument();
  });
});
