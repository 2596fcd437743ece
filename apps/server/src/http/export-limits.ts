import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { createErrorFactory } from '../lib/errors.ts';
import { currentUser } from './access-control.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route streams an export (XLSX/CSV): it takes an export slot and is aborted when stalled. */
    export?: boolean;
  }
}

/**
 * How many exports may stream at once (docs/decisions/011): two per user, and four in all, below the
 * PostgreSQL pool's ten connections, so that searches, record opens and `/readyz` always find one
 * while exports run. `retryAfterSeconds` is what a refused export is told to wait.
 */
export const EXPORT_LIMITS = { perUser: 2, total: 4, retryAfterSeconds: 10 } as const;

export const createTooManyExportsError = createErrorFactory({
  code: 'exports.too_many',
  status: 429,
  title: 'Too Many Requests',
});

/**
 * Aborts a response whose client stopped reading: when the response's buffer has stayed full
 * (`writableNeedDrain`, no `drain`) for `timeoutMs`, the response is destroyed, which destroys the
 * stream piped into it and so frees the database connection it holds. Checks at most once a second.
 * Calls `onStall` just before aborting. See docs/decisions/011 (`EXPORT_STALL_TIMEOUT_SECONDS`).
 */
export function abortWhenStalled(response: ServerResponse, timeoutMs: number, onStall: () => void) {
  let fullSince: number | undefined;
  response.on('drain', () => {
    fullSince = undefined;
  });
  const timer = setInterval(
    () => {
      if (!response.writableNeedDrain) {
        fullSince = undefined;
        return;
      }
      const now = Date.now();
      fullSince ??= now;
      if (now - fullSince >= timeoutMs) {
        clearInterval(timer);
        onStall();
        response.destroy();
      }
    },
    Math.max(50, Math.min(1000, timeoutMs / 4)),
  );
  timer.unref();
  response.once('close', () => clearInterval(timer));
}

/**
 * Export slots and the stall timeout for every route whose config says `export: true` (docs/decisions/011).
 * The slot is taken after sign-in and validation (a bad query takes none) and given back when the
 * response closes, finished or aborted. Over {@link EXPORT_LIMITS}: 429 problem+json
 * `exports.too_many` with `Retry-After` (seconds). Register before the routes.
 */
export function registerExportLimits(
  app: FastifyInstance,
  {
    stallTimeoutSeconds,
    perUser = EXPORT_LIMITS.perUser,
    total = EXPORT_LIMITS.total,
  }: { stallTimeoutSeconds: number; perUser?: number; total?: number },
) {
  const running = new Map<number, number>();
  let runningInAll = 0;

  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config.export) return;
    const userId = currentUser(request).id;
    const mine = running.get(userId) ?? 0;
    if (mine >= perUser || runningInAll >= total) {
      void reply.header('retry-after', String(EXPORT_LIMITS.retryAfterSeconds));
      throw createTooManyExportsError(
        mine >= perUser
          ? `You already have ${perUser} exports under way: wait for one to finish, then try again.`
          : 'The server is busy with other exports: try again in a moment.',
      );
    }
    running.set(userId, mine + 1);
    runningInAll += 1;
    reply.raw.once('close', () => {
      const left = (running.get(userId) ?? 1) - 1;
      if (left > 0) running.set(userId, left);
      else running.delete(userId);
      runningInAll -= 1;
    });
    abortWhenStalled(reply.raw, stallTimeoutSeconds * 1000, () =>
      request.log.warn({ stallTimeoutSeconds }, 'export aborted: the client stopped reading'),
    );
  });
}
