import { z } from 'zod';

/**
 * Who a bulk email reaches and who it skips (part 2 §2.1 Subscribers, §2.5 Sales list screen): the
 * answer of `POST /api/subscribers/email/list/preview` and `POST /api/sales/email/list/preview`.
 * `recipients` get a message; `skipped` counts the matches left out: no email address, unsubscribed
 * through the link, deleted. `preview` is the message as the first recipient gets it (its unsubscribe
 * link an example), null when nobody would receive it.
 */
export const bulkEmailPreviewSchema = z.object({
  recipients: z.number().int().min(0),
  skipped: z.object({
    noAddress: z.number().int().min(0),
    unsubscribed: z.number().int().min(0),
    deleted: z.number().int().min(0),
  }),
  preview: z
    .object({
      to: z.string(),
      subject: z.string(),
      text: z.string(),
    })
    .nullable(),
});
export type BulkEmailPreview = z.infer<typeof bulkEmailPreviewSchema>;

/**
 * Answer of a bulk email (`POST /api/subscribers/email/list`, `POST /api/sales/email/list`): `202
 * {queued, sendId}`, how many messages went into the outbox and the send whose progress
 * `GET /api/mail/sends/{sendId}` reports.
 */
export const bulkEmailQueuedResultSchema = z.object({
  queued: z.number().int().min(0),
  sendId: z.number().int().positive(),
});
export type BulkEmailQueuedResult = z.infer<typeof bulkEmailQueuedResultSchema>;

/**
 * `GET /api/mail/sends/{id}` (part 2 §2.1 Subscribers, §2.5 Sales list screen): the outbox messages of
 * one bulk email by state. `queued` are waiting or being sent, `sent` were accepted by the mail
 * server, `failed` were given up after every retry (`POST /api/mail/sends/{id}/retry` tries them
 * again), `cancelled` will never go (their subscriber was deleted). `createdAt` is ISO 8601.
 */
export const bulkEmailSendProgressSchema = z.object({
  id: z.number().int().positive(),
  subject: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  total: z.number().int().min(0),
  queued: z.number().int().min(0),
  sent: z.number().int().min(0),
  failed: z.number().int().min(0),
  cancelled: z.number().int().min(0),
});
export type BulkEmailSendProgress = z.infer<typeof bulkEmailSendProgressSchema>;

/** Answer of `POST /api/mail/sends/{id}/retry`: how many failed messages were queued again. */
export const bulkEmailRetryResultSchema = z.object({ retried: z.number().int().min(0) });
export type BulkEmailRetryResult = z.infer<typeof bulkEmailRetryResultSchema>;
