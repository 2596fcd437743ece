import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, type FieldError } from '../lib/errors.ts';
import {
  databaseUnavailableReason,
  invalidValueCode,
  isDatabaseUnavailableError,
  postgresErrorCode,
  QUERY_CANCELED,
} from '../lib/postgres-errors.ts';

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Seconds a client should wait before retrying after a 503 for an unreachable database. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

type Problem = { title: string; status: number; code: string; detail?: string; errors?: FieldError[] };

function fieldLabel(path: string) {
  return path === '' ? 'the request' : `'${path}'`;
}

/**
 * Turns whatever was thrown into a problem ("Errors" in docs/spec/design.md §Contract decisions the spec
 * leaves open): 4xx say what is wrong, 5xx say nothing.
 */
function toProblem(error: unknown): Problem {
  if (error instanceof AppError) {
    return {
      title: error.title,
      status: error.status,
      code: error.code,
      detail: error.detail,
      errors: error.errors,
    };
  }
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fastifyError)) {
    const part = fastifyError.validationContext ?? 'body';
    const errors = fastifyError.validation.map((issue) => ({
      path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: issue.message ?? 'Invalid value',
    }));
    const first = errors[0];
    return {
      title: 'Bad Request',
      status: 400,
      code: 'validation.failed',
      detail: first ? `Invalid ${fieldLabel(first.path)} in ${part}: ${first.message}` : `Invalid ${part}`,
      errors,
    };
  }
  if (isResponseSerializationError(fastifyError)) {
    return { title: STATUS_TITLES[500] ?? 'Error', status: 500, code: 'internal' };
  }
  const status = typeof fastifyError.statusCode === 'number' ? fastifyError.statusCode : 500;
  if (status >= 400 && status < 500) {
    return {
      title: STATUS_TITLES[status] ?? 'Client Error',
      status,
      code: status === 429 ? 'rate_limited' : `http.${status}`,
      detail: fastifyError.message,
    };
  }
  if (invalidValueCode(error)) {
    // The contract should have refused it (docs/spec/design.md §Contract decisions the spec leaves
    // open): still the client's fault, never a 500.
    return {
      title: 'Bad Request',
      status: 400,
      code: 'validation.invalid_value',
      detail: 'A value of the request is too long, out of range or not valid text.',
    };
  }
  if (isDatabaseUnavailableError(error)) {
    return {
      title: 'Service Unavailable',
      status: 503,
      code: 'database.unavailable',
      detail: 'The database is not answering. Try again shortly.',
    };
  }
  if (postgresErrorCode(error) === QUERY_CANCELED) {
    // The statement timeout (db/client.ts) stopped the work and its transaction was rolled back.
    return {
      title: 'Service Unavailable',
      status: 503,
      code: 'database.timeout',
      detail: 'The database took too long to do this and stopped: nothing was changed. Try again later.',
    };
  }
  return { title: STATUS_TITLES[500] ?? 'Error', status: 500, code: 'internal' };
}

const FRAMEWORK_ERROR_DETAILS: Record<string, string> = {
  FST_ERR_BAD_URL: 'The path is not a valid URL: check its percent-encoding.',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is longer than 100 characters.',
};

/**
 * Fastify's `frameworkErrors` option: what the router refuses before any route runs (a path with bad
 * percent-encoding, 400; a path parameter over 100 characters, 414) is a problem document too. The
 * path itself is not repeated back: it can be 100,000 characters long.
 */
export function handleFrameworkError(error: FastifyError, _request: unknown, reply: FastifyReply) {
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  const client = status >= 400 && status < 500;
  void reply
    .status(status)
    .type('application/problem+json')
    .send({
      type: 'about:blank',
      title: STATUS_TITLES[status] ?? 'Error',
      status,
      code: client ? `http.${status}` : 'internal',
      ...(client ? { detail: FRAMEWORK_ERROR_DETAILS[error.code] ?? error.message } : {}),
    });
}

/** Registers the one error handler and the not-found handler; both answer `application/problem+json`. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(error);
    if (problem.code === 'database.unavailable') {
      // Expected while PostgreSQL restarts: a warning without the stack, and a hint when to retry.
      request.log.warn({ reason: databaseUnavailableReason(error) }, 'database unavailable');
      void reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    } else if (problem.code === 'database.timeout') {
      // Worth a look: a request the database could not finish in time (a missing index, a huge batch).
      request.log.error({ url: request.routeOptions.url }, 'statement timeout');
    } else if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
    else if (problem.code === 'validation.invalid_value') {
      // Worth a look: the contract let through a value the database refused.
      request.log.warn(
        { pgCode: invalidValueCode(error), url: request.routeOptions.url },
        'value refused by the database',
      );
    } else request.log.info({ code: problem.code, status: problem.status }, 'request refused');
    void reply
      .status(problem.status)
      .type('application/problem+json')
      .send({ type: 'about:blank', ...problem });
  });

  app.setNotFoundHandler((request, reply) => {
    void reply
      .status(404)
      .type('application/problem+json')
      .send({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        code: 'http.404',
        detail: `No route ${request.method} ${request.url.split('?')[0]}`,
      });
  });
}
