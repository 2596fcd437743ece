import type { DuplicateMatch } from '@back-office/contract/duplicates';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, type RecordedRequest } from '../../../testing/fetch-mock.ts';
import { signIn } from '../../../testing/session.ts';
import { DUPLICATE_CHECK_DELAY_MS } from './subscriber-duplicates-alert.tsx';
import { SubscriberForm } from './subscriber-form.tsx';
import { BLANK, LOOKUPS, renderInDataRouter, ZOE } from './subscriber-test-data.tsx';

const CHECK = 'POST /api/subscribers/duplicates/check';
const WARNING = 'This person may already be in the register';

const MATCHES: DuplicateMatch[] = [
  {
    id: 42,
    name: 'Mme Zoé Dupont',
    postcode: '1003',
    town: 'Lausanne',
    email: 'zoe@example.org',
    reasons: ['email', 'name+town'],
  },
  { id: 57, name: 'Zoé Dupond', postcode: '', town: '', email: '', reasons: ['iban'] },
];

function renderForm(subscriber = BLANK) {
  return renderInDataRouter(
    <SubscriberForm subscriber={subscriber} lookups={LOOKUPS} />,
    `/subscriber/${subscriber.id === 0 ? 'new' : subscriber.id}`,
  );
}

function checks(requests: RecordedRequest[]) {
  return requests.filter((request) => `${request.method} ${request.path}` === CHECK);
}

/** Longer than the check's delay, to see that nothing was asked. */
function pause() {
  return new Promise((resolve) => setTimeout(resolve, DUPLICATE_CHECK_DELAY_MS + 200));
}

describe('SubscriberForm duplicate warning', { timeout: 30_000 }, () => {
  it('checks a new subscriber once the user leaves a field, and lists the matches with links', async () => {
    signIn({ role: 'User' });
    const requests = mockFetch({ [CHECK]: () => jsonResponse(MATCHES) });
    const { user } = renderForm();
    await user.type(screen.getByLabelText(/^First Name/), 'Zoé');
    await user.type(screen.getByLabelText(/^Last Name/), 'Dupont');
    await user.tab();
    await pause();
    // A name alone says too little.
    expect(checks(requests)).toHaveLength(0);

    await user.type(screen.getByLabelText('Email'), 'zoe@example.org');
    await user.tab();
    const warning = await screen.findByRole('alert', { name: WARNING });
    expect(checks(requests).map((request) => request.body)).toEqual([
      {
        excludeId: 0,
        firstName: 'Zoé',
        lastName: 'Dupont',
        email: 'zoe@example.org',
        phone: '',
        mobile: '',
        iban: '',
        postcode: '',
        town: '',
      },
    ]);
    const items = within(warning).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const first = within(items[0] as HTMLElement).getByRole('link', {
      name: 'Mme Zoé Dupont (no. 42) (opens in a new tab)',
    });
    expect(first).toHaveAttribute('href', '/subscriber/42');
    expect(first).toHaveAttribute('target', '_blank');
    expect(items[0]).toHaveTextContent('1003 Lausanne · zoe@example.org');
    expect(items[0]).toHaveTextContent('Same email, similar name in the same town');
    expect(items[1]).toHaveTextContent('Same IBAN');
    expect(within(items[1] as HTMLElement).getByRole('link')).toHaveAttribute('href', '/subscriber/57');

    // Saving is still possible.
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('shows nothing when nobody matches', async () => {
    signIn({ role: 'User' });
    const requests = mockFetch({ [CHECK]: () => jsonResponse([]) });
    const { user } = renderForm();
    await user.type(screen.getByLabelText(/^Last Name/), 'Martin');
    await user.type(screen.getByLabelText('Town'), 'Genève');
    await user.tab();
    await waitFor(() => expect(checks(requests)).toHaveLength(1));
    expect(checks(requests)[0]?.body).toMatchObject({ lastName: 'Martin', town: 'Genève', excludeId: 0 });
    await pause();
    expect(screen.queryByRole('alert', { name: WARNING })).not.toBeInTheDocument();
  });

  it('checks an edited subscriber only once a value changed, leaving the subscriber itself out', async () => {
    signIn();
    const requests = mockFetch({ [CHECK]: () => jsonResponse(MATCHES.slice(1)) });
    const { user } = renderForm(ZOE);
    await user.click(screen.getByLabelText('Town'));
    await user.tab();
    await pause();
    expect(checks(requests)).toHaveLength(0);

    await user.type(screen.getByLabelText('IBAN'), 'CH93 0076 2011 6238 5295 7');
    await user.tab();
    const warning = await screen.findByRole('alert', { name: WARNING });
    expect(within(warning).getByRole('link', { name: /Zoé Dupond \(no\. 57\)/ })).toBeInTheDocument();
    expect(checks(requests).at(-1)?.body).toEqual({
      excludeId: 42,
      firstName: 'Zoé',
      lastName: 'Dupont',
      email: 'zoe@example.org',
      phone: '',
      mobile: '',
      iban: 'CH93 0076 2011 6238 5295 7',
      postcode: '1003',
      town: 'Lausanne',
    });
  });
});
