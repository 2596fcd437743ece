import type { FastifyRequest } from 'fastify';

/**
 * What the server's logs may hold (docs/security.md §Input, output and headers; docs/spec/style.md
 * §Tooling): never a token, never personal data (names, addresses, email addresses, IBANs). Fastify's own
 * request lines are the main risk: by default they carry the full URL, query string included, where
 * searches put names and emails and the unsubscribe link puts its token. So requests are logged by route
 * pattern, errors without the values that database drivers attach to them, and the usual secret-bearing
 * fields are redacted in case some code logs them.
 */

/** Fields pino blanks wherever code logs them (one level of nesting, pino's `*`). */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.newPassword',
  '*.confirmPassword',
  '*.token',
  '*.id_token',
  '*.access_token',
  '*.iban',
  '*.email',
  '*.body',
  '*.query',
];

/**
 * The route pattern of a request (`/api/subscribers/:id`), with a path parameter written out only when
 * it is a plain number (an id): never the query string, nor free text a caller put in the path.
 * `(no route)` for a request that matched none.
 */
export function loggedUrl(request: FastifyRequest): string {
  const pattern = request.routeOptions?.url;
  if (!pattern) return '(no route)';
  const params = (request.params ?? {}) as Record<string, unknown>;
  return pattern.replace(/:(\w+)/g, (whole, name: string) => {
    const value = params[name];
    return (typeof value === 'string' || typeof value === 'number') && /^\d{1,15}$/.test(String(value))
      ? String(value)
      : whole;
  });
}

/** The logged shape of a request: method, route (see {@link loggedUrl}) and the caller's address. */
function serializeRequest(request: FastifyRequest) {
  return { method: request.method, url: loggedUrl(request), remoteAddress: request.ip };
}

type LoggedError = {
  type: string;
  message: string;
  stack: string;
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  cause?: LoggedError;
};

/** A PostgreSQL (pg or PGlite) error: it has a severity and a five-character SQLSTATE code. */
function isPostgresError(error: Error): error is Error & Record<string, unknown> {
  const fields = error as unknown as Record<string, unknown>;
  return (
    typeof fields.severity === 'string' &&
    typeof fields.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(fields.code)
  );
}

const names = (error: Record<string, unknown>) =>
  Object.fromEntries(
    (['constraint', 'table', 'column'] as const)
      .filter((key) => typeof error[key] === 'string')
      .map((key) => [key, error[key] as string]),
  );

/**
 * The logged shape of an error: type, message, stack, code and cause only. Database errors carry row
 * values (`detail` "Key (email)=(...)", Drizzle's `params` and its message's `params:` line, PostgreSQL
 * messages such as `invalid input syntax for type integer: "<value>"`), so: a Drizzle query error keeps
 * its SQL text, which holds placeholders only; a PostgreSQL error keeps its code and the names of the
 * constraint, table and column, and its message with every quoted part blanked.
 */
export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: 'non-error value thrown', stack: '' };
  let message = error.message;
  let stack = error.stack ?? '';
  if ('params' in error && 'query' in error && typeof error.query === 'string') {
    message = `Failed query: ${error.query}`;
    stack = stack.replace(error.message, `${message} [parameters not logged]`);
  }
  let extra = {};
  if (isPostgresError(error)) {
    const masked = message.replace(/"[^"]*"/g, '"…"');
    stack = stack.replace(message, masked);
    message = masked;
    extra = names(error);
  }
  const code = (error as { code?: unknown }).code;
  return {
    type: error.constructor?.name ?? error.name,
    message,
    stack,
    ...(typeof code === 'string' ? { code } : {}),
    ...extra,
    ...(error.cause !== undefined && depth < 5 ? { cause: serializeError(error.cause, depth + 1) } : {}),
  };
}

/** Logger options merged over whatever the caller asked for (level, destination, pretty printing). */
export const safeLogOptions = {
  redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
  serializers: { req: serializeRequest, err: serializeError, error: serializeError },
};
