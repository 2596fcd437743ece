import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { EMPTY_SUBSCRIBER_FILTERS } from '../subscriber-filters.ts';
import { EmailSubscribersModal } from './email-subscribers-modal.tsx';

const FILTERS = { ...EMPTY_SUBSCRIBER_FILTERS, lastName: 'Dupont', country: '11', status: '1', copies: '2' };

describe('EmailSubscribersModal', () => {
  it('shows the validation texts after a send attempt and sends nothing', async () => {
    const requests = mockFetch({});
    const { user } = renderWithProviders(
      <EmailSubscribersModal opened filters={FILTERS} onClose={vi.fn()} />,
    );
    expect(screen.getByPlaceholderText('Enter subject')).toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toHaveAttribute('rows', '5');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText('Subject is required')).toBeInTheDocument();
    expect(screen.getByText('Message is required')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('wants a subject of at least 4 characters, once touched', async () => {
    mockFetch({});
    const { user } = renderWithProviders(
      <EmailSubscribersModal opened filters={FILTERS} onClose={vi.fn()} />,
    );
    await user.type(screen.getByPlaceholderText('Enter subject'), 'Bon');
    await user.tab();
    expect(screen.getByText('Subject is required')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('Enter subject'), 'jour');
    expect(screen.queryByText('Subject is required')).not.toBeInTheDocument();
  });

  it('sends the message with the current filters (empty lists as null) and says so', async () => {
    signIn();
    const requests = mockFetch({
      'POST /api/subscribers/email/list': () => jsonResponse({ queued: 2 }, 202),
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(
      <EmailSubscribersModal opened filters={FILTERS} onClose={onClose} />,
    );
    await user.type(screen.getByPlaceholderText('Enter subject'), 'Bonjour {{firstName}');
    await user.type(screen.getByLabelText('Message'), 'Merci !');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Email(s) submitted successfully!')).toBeInTheDocument();
    expect(requests[0]?.body).toEqual({
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
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('stays open and says so when the server refuses', async () => {
    signIn();
    mockFetch({ 'POST /api/subscribers/email/list': () => problemResponse(500, 'internal') });
    const onClose = vi.fn();
    const { user } = renderWithProviders(
      <EmailSubscribersModal opened filters={FILTERS} onClose={onClose} />,
    );
    await user.type(screen.getByPlaceholderText('Enter subject'), 'Bonjour');
    await user.type(screen.getByLabelText('Message'), 'Merci !');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(
      await screen.findByText(
        'Houston - there was a problem emailing the subscribers. Please try again or contact your system administrator.',
      ),
    ).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
