import type { z } from 'zod';
import { ApiError, apiErrorFromProblem } from './api-error.ts';
import { endSession } from './end-session.ts';
import { getIdToken } from './session.ts';

/**
 * Fetch wrapper of every HTTP call (part 1 §6: "All data calls carry the id token as a bearer
 * authorization header"; §8 error catalogue; DESIGN.md "Errors").
 *
 * - `/api/*` calls send `Authorization: Bearer <id_token>` unless told otherwise.
 * - Error answers (`application/problem+json`) become a typed {@link ApiError}; their details are
 *   logged with `console.warn`, never shown.
 * - A 401 on a call that carried a bearer token ends the session and goes to the login screen.
 */

type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** `'id-token'`: the stored id token; `'none'`: no header; `{ bearer }`: that token (e.g. the access token). */
export type ApiAuth = 'id-token' | 'none' | { bearer: string };

export type ApiRequestOptions = {
  method?: HttpMethod;
  body?: unknown;
  /** Default: `'id-token'` for `/api/*` paths, `'none'` otherwise. */
  auth?: ApiAuth;
  /** When false, a 401 does not end the session (login flow, logout). Default true. */
  handleUnauthorized?: boolean;
  signal?: AbortSignal;
};

let unauthorizedHandler: () => void = () => {
  window.location.hash = '#/login';
};

/** Registers how to reach the login screen after a 401 (the router registers its navigate). */
export function setUnauthorizedHandler(handler: () => void): void {
  unauthorizedHandler = handler;
}

function resolveBearer(path: string, auth: ApiAuth | undefined): string | null {
  const mode = auth ?? (path.startsWith('/api/') ? 'id-token' : 'none');
  if (mode === 'none') return null;
  if (mode === 'id-token') return getIdToken();
  return mode.bearer;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
  return text;
}

function logFailure(method: string, path: string, error: ApiError): void {
  console.warn(`[api] ${method} ${path} failed`, {
    status: error.status,
    code: error.code,
    detail: error.detail,
    errors: error.errors,
  });
}

/** Sends one request and parses the JSON answer with `schema`. */
export function apiRequest<T>(
  path: string,
  options: ApiRequestOptions & { schema: z.ZodType<T> },
): Promise<T>;
/** Sends one request whose answer body is not used (204, deletes). */
export function apiRequest(path: string, options?: ApiRequestOptions): Promise<void>;
export async function apiRequest<T>(
  path: string,
  options: ApiRequestOptions & { schema?: z.ZodType<T> } = {},
): Promise<T | undefined> {
  const method = options.method ?? 'GET';
  const headers = new Headers({ Accept: 'application/json' });
  const bearer = resolveBearer(path, options.auth);
  if (bearer) headers.set('Authorization', `Bearer ${bearer}`);
  const init: RequestInit = { method, headers };
  if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    init.body = JSON.stringify(options.body);
  }
  if (options.signal) init.signal = options.signal;

  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    const error = new ApiError({ status: 0, code: 'network.unreachable', detail: String(cause) });
    logFailure(method, path, error);
    throw error;
  }

  const body = await readBody(response);
  if (!response.ok) {
    const error = apiErrorFromProblem(response.status, body);
    logFailure(method, path, error);
    if (response.status === 401 && bearer && options.handleUnauthorized !== false) {
      endSession();
      unauthorizedHandler();
    }
    throw error;
  }

  if (!options.schema) return undefined;
  const parsed = options.schema.safeParse(body);
  if (!parsed.success) {
    const error = new ApiError({
      status: response.status,
      code: 'client.unexpected_response',
      detail: parsed.error.message,
    });
    logFailure(method, path, error);
    throw error;
  }
  return parsed.data;
}
