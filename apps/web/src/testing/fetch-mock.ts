import { vi } from 'vitest';

/** One recorded request of the mocked `fetch`. */
export type RecordedRequest = {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  headers: Headers;
  /** A JSON body parsed, a `FormData` body as it was sent, otherwise undefined. */
  body: unknown;
};

type Responder = (request: RecordedRequest) => Response | Promise<Response>;

/** A JSON answer. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** An `application/problem+json` answer (part 1 §8). */
export function problemResponse(
  status: number,
  code: string,
  extra: { detail?: string; errors?: { path: string; message: string }[] } = {},
): Response {
  return new Response(JSON.stringify({ type: 'about:blank', title: code, status, code, ...extra }), {
    status,
    headers: { 'Content-Type': 'application/problem+json' },
  });
}

/** An empty answer, e.g. 204 or 202. */
export function emptyResponse(status = 204): Response {
  return new Response(null, { status });
}

/**
 * Replaces `fetch` at the boundary: `routes` maps "METHOD /path" to a responder. An unexpected
 * request fails the test. Returns the list of requests made.
 */
export function mockFetch(routes: Record<string, Responder>): RecordedRequest[] {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const rawBody = init?.body;
    const request: RecordedRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(init?.headers),
      body:
        typeof rawBody === 'string'
          ? (JSON.parse(rawBody) as unknown)
          : rawBody instanceof FormData
            ? rawBody
            : undefined,
    };
    requests.push(request);
    const responder = routes[`${method} ${url.pathname}`];
    if (!responder) throw new Error(`Unexpected request ${method} ${url.pathname}`);
    return responder(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return requests;
}

/** A promise whose settling the test controls (to observe busy states). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}
