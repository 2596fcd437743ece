import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { EMPTY_SUBSCRIBER_FILTERS } from '../subscriber-filters.ts';
import { EmailSubscribersModal } from './email-subscribers-modal.tsx';

const FILTERS = { ...EMPTY_SUBSCRIBER_FILTERS, lastName: 'Dupont', country: '11', status: '1', copies: '2' };

const PREVIEW = {
  recipients: 1284,
  skipped: { noAddress: 3, unsubscribed: 2, deleted: 0 },
  preview: {
    to: 'elodie@example.org',
    subject: 'Bonjour Élodie',
    text: 'Bonjour Mme Élodie Dupont,\nMerci !',
  },
};

const previewRoute = { 'POST /api/subscribers/email/list/preview': () => jsonResponse(PREVIEW) };

/** French thousands: "1 284" with a narrow no-break space (as accessible names keep it). */
const fr = (value: number) => new Intl.NumberFormat('fr-FR').format(value);
/** The same as text queries see it: their default normaliser makes every space a plain one. */
const frText = (value: number) => fr(value).replace(/\s/g, ' ');

async function fill(user: ReturnType<typeof renderWithProviders>['user'], subject: string, message: string) {
  if (subject) await user.type(screen.getByPlaceholderText('Enter subject'), subject);
  if (message) await user.type(screen.getByLabelText('Message'), message);
}

describe('EmailSubscribersModal', () => {
  it('keeps Send disabled while the subject or the message is empty, and shows the rules after a Send', async () => {
    signIn();
    const requests = mockFetch(previewRoute);
    const { user } = renderWithProviders(
      <EmailSubscribersModal opened filters={FILTERS} onClose={vi.fn()} />,
    );
    expect(screen.getByLabelText('Message')).toHaveAttribute('rows', '5');
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send a test to me' })).toBeDisabled();
    await fill(user, 'Bon', '');
    expect(send).toBeDisabled();
    await fill(user, '', 'Merci');
    expect(send).toBeEnabled();
    await user.click(send);
    expect(screen.getByText('Subject is required')).toBeInTheDocument();
    expect(requests.filter((request) => request.path === '/api/subscribers/email/list')).toHaveLength(0);
  });

  it('says how many receive it and how many are skipped, and previews the first recipient’s message', async () => {
    signIn();
    const requests = mockFetch(previewRoute);
    const { user } = renderWithProviders(
      <EmailSubscribersModal opened filters={FILTERS} onClose={vi.fn()} />,
    );
    expect(
      await screen.findByText(
        `${frText(1284)} will receive it. Skipped: 3 without an email address, 2 unsubscribed, 0 deleted.`,
      ),
    ).toBeInTheDocument();
    await fill(user, 'Bonjour {{firstName}', 'Merci !');
    const preview = await screen.findByRole('region', { name: 'Preview' });
    expect(within(preview).getByText('Preview for elodie@example.org')).toBeInTheDocument();
    expect(within(preview).getByText('Subject: Bonjour Élodie')).toBeInTheDocument();
    await waitFor(() =>
      expect(requests.at(-1)?.body).toMatchObject({
        subject: 'Bonjour {firstName}',
        message: 'Merci !',
        name: 'Dupont',
        country: 11,
      }),
    );
  });

  it('sends a test to the signed-in user', async () => {
    signIn();
    const requests = mockFetch({
      ...previewRoute,
      'POST /api/subscribers/email/list/test': () => jsonResponse({ queued: 1 }, 202),
    });
    const { user } = renderWithProviders(
      <EmailSubscribersModal opened filters={FILTERS} onClose={vi.fn()} />,
    );
    await fill(user, 'Bonjour', 'Merci !');
    await user.click(screen.getByRole('button', { name: 'Send a test to me' }));
    expect(await screen.findByText('Test email sent to your address.')).toBeInTheDocument();
    expect(requests.find((request) => request.path.endsWith('/test'))?.body).toMatchObject({
      subject: 'Bonjour',
      message: 'Merci !',
      name: 'Dupont',
    });
  });

  it('asks to confirm naming the count, sends with the filters, then shows the progress and retries the failed', async () => {
    signIn();
    let progress = { queued: 1, sent: 1282, failed: 1 };
    const requests = mockFetch({
      ...previewRoute,
      'POST /api/subscribers/email/list': () => jsonResponse({ queued: 1284, sendId: 7 }, 202),
      'GET /api/mail/sends/7': () =>
        jsonResponse({
          id: 7,
          subject: 'Bonjour',
          createdBy: 'Ann',
          createdAt: '2026-11-26T10:00:00.000Z',
          total: 1284,
          cancelled: 0,
          ...progress,
        }),
      'POST /api/mail/sends/7/retry': () => {
        progress = { queued: 1, sent: 1283, failed: 0 };
        return jsonResponse({ retried: 1 }, 202);
      },
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(
      <EmailSubscribersModal opened filters={FILTERS} onClose={onClose} />,
    );
    await screen.findByText(/will receive it/);
    await fill(user, 'Bonjour {{firstName}', 'Merci !');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByRole('heading', { name: `Send to ${fr(1284)} subscribers?` })).toBeInTheDocument();
    expect(requests.filter((request) => request.path === '/api/subscribers/email/list')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Yes, send' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Yes, send' }));
    expect(await screen.findByText('Email(s) submitted successfully!')).toBeInTheDocument();
    expect(requests.find((request) => request.path === '/api/subscribers/email/list')?.body).toEqual({
      subject: 'Bonjour {firstName}',
      message: 'Merci !',
      name: 'Dupont',
      firstName: '',
      town: '',
      postcode: '',
      assoc: '',
      category: null,
      country: 11,
      pmeth: null,
      receivingCopies: 2,
      addedAfter: '',
      addedBefore: '',
      copies: 2,
      status: 1,
      tag: null,
    });
    expect(await screen.findByText(`Queued: 1 · Sent: ${frText(1282)} · Failed: 1`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry failed' }));
    expect(await screen.findByText(`Queued: 1 · Sent: ${frText(1283)} · Failed: 0`)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry failed' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Done' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('goes back from the confirmation, and stays open saying so when the server refuses', async () => {
    signIn();
    mockFetch({
      ...previewRoute,
      'POST /api/subscribers/email/list': () => problemResponse(500, 'internal'),
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(
      <EmailSubscribersModal opened filters={FILTERS} onClose={onClose} />,
    );
    await fill(user, 'Bonjour', 'Merci !');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByPlaceholderText('Enter subject')).toHaveValue('Bonjour');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await user.click(screen.getByRole('button', { name: 'Yes, send' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem emailing the subscribers. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Enter subject')).toHaveValue('Bonjour');
    expect(onClose).not.toHaveBeenCalled();
  });
});
