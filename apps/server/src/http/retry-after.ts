import type { FastifyReply } from 'fastify';

/**
 * Runs `handler`; when it throws an error that carries `retryAfterSeconds` (a sign-in lockout, see
 * docs/decisions/011), the answer says when to try again in `Retry-After` (seconds) before the error
 * goes on.
 */
export async function withRetryAfter<T>(reply: FastifyReply, handler: () => Promise<T>): Promise<T> {
  try {
    return await handler();
  } catch (error) {
    const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retryAfter) void reply.header('retry-after', String(retryAfter));
    throw error;
  }
}
