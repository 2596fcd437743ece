import {
  type BulkEmailRetryResult,
  type BulkEmailSendProgress,
  bulkEmailRetryResultSchema,
  bulkEmailSendProgressSchema,
} from '@back-office/contract/mail';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Query keys of bulk email sends. */
export const mailSendKeys = {
  all: ['mail-sends'] as const,
  detail: (id: number) => [...mailSendKeys.all, id] as const,
};

/** How often the progress of a send still in the outbox is read again (ms). */
export const MAIL_SEND_POLL_MS = 2000;

/**
 * `GET /api/mail/sends/{id}` -> `{id, subject, createdBy, createdAt, total, queued, sent, failed,
 * cancelled}`: the outbox messages of one bulk email by state.
 */
export function getMailSend(id: number, signal?: AbortSignal): Promise<BulkEmailSendProgress> {
  return apiRequest(`/api/mail/sends/${id}`, {
    schema: bulkEmailSendProgressSchema,
    ...(signal ? { signal } : {}),
  });
}

/** The progress of send `id`, read again every {@link MAIL_SEND_POLL_MS} while messages are queued. */
export function useMailSend(id: number) {
  return useQuery(
    queryOptions({
      queryKey: mailSendKeys.detail(id),
      queryFn: ({ signal }) => getMailSend(id, signal),
      refetchInterval: (query) => ((query.state.data?.queued ?? 1) > 0 ? MAIL_SEND_POLL_MS : false),
    }),
  );
}

/**
 * `POST /api/mail/sends/{id}/retry` -> `{retried}`: queues the failed messages of send `id` again
 * (its sender or an Administrator; 403 otherwise).
 */
export function retryMailSend(id: number): Promise<BulkEmailRetryResult> {
  return apiRequest(`/api/mail/sends/${id}/retry`, { method: 'POST', schema: bulkEmailRetryResultSchema });
}

/** Mutation over {@link retryMailSend}; the send's progress is read again after it. */
export function useRetryMailSend(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => retryMailSend(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mailSendKeys.detail(id) }),
  });
}
