import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, type FieldError } from '../lib/errors.ts';

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

type Problem = { title: string; status: number; code: string; detail?: string; errors?: FieldError[] };

function fieldLabel(path: string) {
  return path === '' ? 'the request' : `'${path}'`;
}

/** Turns whatever was thrown into a problem (DESIGN.md "Errors"): 4xx say what is wrong, 5xx say nothing. */
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
  if (isDatabaseUnavailable(error)) {
    return {
      title: 'Service Unavailable',
      status: 503,
      code: 'database.unavailable',
      detail: 'The database is not answering. Try again shortly.',
    };
  }
  return { title: STATUS_TITLES[500] ?? 'Error', status: 500, code: 'internal' };
}

function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === '57P01' ||
    code === '57P03' ||
    (error instanceof Error && /Connection terminated|connection timeout/i.test(error.message))
  );
}

/** Registers the one error handler and the not-found handler; both answer `application/problem+json`. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(error);
    if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: problem.code, status: problem.status }, 'request refused');
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
