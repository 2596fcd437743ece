import {
  type BulkEmailPreview,
  type BulkEmailQueuedResult,
  bulkEmailPreviewSchema,
  bulkEmailQueuedResultSchema,
} from '@back-office/contract/mail';
import {
  type EmailQueuedResult,
  emailQueuedResultSchema,
  type SubscriberEmailListInput,
  type SubscriberEmailPreviewInput,
} from '@back-office/contract/subscribers';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `POST /api/subscribers/email/list {subject, message, name, firstName, town, postcode, assoc,
 * category, country, pmeth, receivingCopies, addedAfter, addedBefore, copies, status, tag}` ->
 * `{queued, sendId}` (part 2 §3, §7): one message per matching subscriber with an email address.
 */
export function emailSubscribers(input: SubscriberEmailListInput): Promise<BulkEmailQueuedResult> {
  return apiRequest('/api/subscribers/email/list', {
    method: 'POST',
    body: input,
    schema: bulkEmailQueuedResultSchema,
  });
}

/** Mutation hook over {@link emailSubscribers} (§2.1 Email Subscribers modal). */
export function useEmailSubscribers() {
  return useMutation({ mutationFn: emailSubscribers });
}

/**
 * `POST /api/subscribers/email/list/preview` (same body, subject and message may be empty) ->
 * `{recipients, skipped: {noAddress, unsubscribed, deleted}, preview: {to, subject, text} | null}`.
 */
export function previewSubscribersEmail(
  input: SubscriberEmailPreviewInput,
  signal?: AbortSignal,
): Promise<BulkEmailPreview> {
  return apiRequest('/api/subscribers/email/list/preview', {
    method: 'POST',
    body: input,
    schema: bulkEmailPreviewSchema,
    ...(signal ? { signal } : {}),
  });
}

/** `POST /api/subscribers/email/list/test` (same body as the email) -> `{queued: 1}`: the test to me. */
export function testSubscribersEmail(input: SubscriberEmailListInput): Promise<EmailQueuedResult> {
  return apiRequest('/api/subscribers/email/list/test', {
    method: 'POST',
    body: input,
    schema: emailQueuedResultSchema,
  });
}
