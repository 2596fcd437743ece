import type { InjectOptions } from 'fastify';
import { bearer, login, type TestContext } from './context.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An answer of the test API client: status, parsed JSON body (undefined when empty) and headers. */
export type TestAnswer<T> = { status: number; body: T; headers: Record<string, unknown>; raw: Buffer };

/**
 * The server tests' one HTTP client: requests go through `app.inject` (no socket) with the bearer
 * token of whoever the client speaks for. `expect(status)` throws with the answer's body when the
 * status differs, so a failing set-up says why.
 */
export function apiClient(ctx: TestContext, idToken?: string) {
  async function send<T>(method: Method, url: string, payload?: unknown): Promise<TestAnswer<T>> {
    const options: InjectOptions = { method, url, headers: idToken ? bearer(idToken) : {} };
    if (payload !== undefined) options.payload = payload as InjectOptions['payload'];
    const response = await ctx.app.inject(options);
    const text = response.body;
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    return {
      status: response.statusCode,
      body: body as T,
      headers: response.headers,
      raw: response.rawPayload,
    };
  }

  /** Sends and checks the status: resolves with the body, or throws naming the request and the answer. */
  async function expectStatus<T>(status: number, method: Method, url: string, payload?: unknown): Promise<T> {
    const answer = await send<T>(method, url, payload);
    if (answer.status !== status) {
      throw new Error(
        `${method} ${url}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    }
    return answer.body;
  }

  return {
    send,
    expectStatus,
    get: <T>(url: string) => send<T>('GET', url),
    post: <T>(url: string, payload?: unknown) => send<T>('POST', url, payload),
    put: <T>(url: string, payload?: unknown) => send<T>('PUT', url, payload),
    patch: <T>(url: string, payload?: unknown) => send<T>('PATCH', url, payload),
    delete: <T>(url: string) => send<T>('DELETE', url),
  };
}

export type TestApi = ReturnType<typeof apiClient>;

/** The API client of the first Administrator (signed in through `/auth/login`). */
export async function asAdministrator(ctx: TestContext): Promise<TestApi> {
  return apiClient(ctx, (await login(ctx)).id_token);
}
