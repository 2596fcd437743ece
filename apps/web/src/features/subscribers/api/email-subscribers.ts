import {
  type EmailQueuedResult,
  emailQueuedResultSchema,
  type SubscriberEmailListInput,
} from '@back-office/contract/subscribers';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `POST /api/subscribers/email/list {subject, message, name, firstName, town, postcode, assoc,
 * category, country, pmeth, receivingCopies, addedAfter, addedBefore, copies, status, tag}` ->
 * `{queued}` (part 2 §3, §7): one message per matching subscriber with an email address.
 */
export function emailSubscribers(input: SubscriberEmailListInput): Promise<EmailQueuedResult> {
  return apiRequest('/api/subscribers/email/list', {
    method: 'POST',
    body: input,
    schema: emailQueuedResultSchema,
  });
}

/** Mutation hook over {@link emailSubscribers} (§2.1 Email Subscribers modal). */
export function useEmailSubscribers() {
  return useMutation({ mutationFn: emailSubscribers });
}
