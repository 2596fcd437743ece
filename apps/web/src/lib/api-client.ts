import type { z } from 'zod';
import { ApiError, apiErrorFromProblem } from './api-error.ts';
import { endSession } from './end-session.ts';
import { getIdToken } from './session.ts';

/**
 * Fetch wrapper of every HTTP call (part 1 §6: "All data calls carry the id token as a bearer
 * authorization header"; §8 error catalogue).
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
  /** Sent as JSON, or as it is when a `FormData` (multipart, e.g. a file upload). */
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

/**
 * Sends the request; a failure (unreachable server, error status) becomes a logged ApiError, and a 401
 * to a call that carried a bearer token ends the session. Returns the successful response unread.
 */
async function send(
  path: string,
  options: ApiRequestOptions,
  accept: string,
): Promise<{ response: Response; method: HttpMethod }> {
  const method = options.method ?? 'GET';
  const headers = new Headers({ Accept: accept });
  const bearer = resolveBearer(path, options.auth);
  if (bearer) headers.set('Authorization', `Bearer ${bearer}`);
  const init: RequestInit = { method, headers };
  if (options.body instanceof FormData) {
    // The browser writes the multipart Content-Type with its boundary.
    init.body = options.body;
  } else if (options.body !== undefined) {
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

  if (!response.ok) {
    const error = apiErrorFromProblem(response.status, await readBody(response));
    logFailure(method, path, error);
    if (response.status === 401 && bearer && options.handleUnauthorized !== false) {
      endSession();
      unauthorizedHandler();
    }
    throw error;
  }
  return { response, method };
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
  const { response, method } = await send(path, options, 'application/json');
  const body = await readBody(response);
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

/** A downloaded file: its bytes and the name the server gave it in `Content-Disposition`, if any. */
export type DownloadedFile = { blob: Blob; filename: string | null };

/**
 * Downloads a file (e.g. `GET /api/products/export`, part 1 §7 Products) with the same bearer header
 * and error handling as {@link apiRequest}; the body is read as a blob, whatever its type.
 */
export async function apiDownload(
  path: string,
  options: ApiRequestOptions & { accept?: string } = {},
): Promise<DownloadedFile> {
  const { response } = await send(path, options, options.accept ?? '*/*');
  const blob = await response.blob();
  return { blob, filename: filenameFromContentDisposition(response.headers.get('content-disposition')) };
}

/**
 * The file name of a `Content-Disposition` header (RFC 6266): the UTF-8 `filename*` when present,
 * otherwise `filename`; null when there is none. Path separators are dropped.
 */
export function filenameFromContentDisposition(header: string | null): string | null {
  if (!header) return null;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      name = decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      name = null;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
    name = (plain?.[2] ?? plain?.[1] ?? '').trim() || null;
  }
  const safe = name?.replace(/[/\\]/g, '_').trim();
  return safe ? safe : null;
}
