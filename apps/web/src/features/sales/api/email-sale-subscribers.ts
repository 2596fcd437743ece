import {
  type BulkEmailPreview,
  type BulkEmailQueuedResult,
  bulkEmailPreviewSchema,
  bulkEmailQueuedResultSchema,
} from '@back-office/contract/mail';
import { emailQueuedResultSchema } from '@back-office/contract/subscribers';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { SalesEmailFilters } from '../sales-filters.ts';

/** The `POST /api/sales/email/list` body (part 2 §3 "Sales email-list payload"). */
export type EmailSaleSubscribersInput = SalesEmailFilters & { subject: string; message: string };

/**
 * `POST /api/sales/email/list` -> `{queued, sendId}`: one email to each subscriber behind the matching
 * sales (part 2 §2.5, §7); `sendId` is the send whose progress the dialog shows.
 */
export function emailSaleSubscribers(input: EmailSaleSubscribersInput): Promise<BulkEmailQueuedResult> {
  return apiRequest('/api/sales/email/list', {
    method: 'POST',
    body: input,
    schema: bulkEmailQueuedResultSchema,
  });
}

/** Mutation hook over {@link emailSaleSubscribers}. */
export function useEmailSaleSubscribers() {
  return useMutation({ mutationFn: emailSaleSubscribers });
}

/**
 * `POST /api/sales/email/list/preview` (same body, subject and message may be empty) ->
 * `{recipients, skipped: {noAddress, unsubscribed, deleted}, preview: {to, subject, text} | null}`.
 */
export function previewSaleSubscribersEmail(
  input: EmailSaleSubscribersInput,
  signal?: AbortSignal,
): Promise<BulkEmailPreview> {
  return apiRequest('/api/sales/email/list/preview', {
    method: 'POST',
    body: input,
    schema: bulkEmailPreviewSchema,
    ...(signal ? { signal } : {}),
  });
}

/** `POST /api/sales/email/list/test` (same body as the email) -> `{queued: 1}`: the test to me. */
export function testSaleSubscribersEmail(input: EmailSaleSubscribersInput) {
  return apiRequest('/api/sales/email/list/test', {
    method: 'POST',
    body: input,
    schema: emailQueuedResultSchema,
  });
}
