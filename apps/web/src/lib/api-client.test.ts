import { userListSchema } from '@back-office/contract/users';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, problemResponse } from '../testing/fetch-mock.ts';
import { signIn } from '../testing/session.ts';
import {
  apiDownload,
  apiRequest,
  filenameFromContentDisposition,
  setUnauthorizedHandler,
} from './api-client.ts';
import { ApiError } from './api-error.ts';
import { getIdToken } from './session.ts';

describe('apiRequest', () => {
  it('sends the id token as a bearer header on /api calls and parses the answer', async () => {
    signIn();
    const requests = mockFetch({ 'GET /api/users': () => jsonResponse([]) });
    await expect(apiRequest('/api/users', { schema: userListSchema })).resolves.toEqual([]);
    expect(requests[0]?.headers.get('Authorization')).toBe(`Bearer ${getIdToken()}`);
  });

  it('sends no token to /auth calls unless told to', async () => {
    signIn();
    const requests = mockFetch({ 'POST /auth/password-reset': () => new Response(null, { status: 202 }) });
    await apiRequest('/auth/password-reset', { method: 'POST', body: { email: 'a@b.c' } });
    expect(requests[0]?.headers.get('Authorization')).toBeNull();
    expect(requests[0]?.body).toEqual({ email: 'a@b.c' });
  });

  it('sends a FormData body as it is, leaving its multipart Content-Type to the browser', async () => {
    signIn();
    const requests = mockFetch({ 'POST /api/imports': () => new Response(null, { status: 204 }) });
    const form = new FormData();
    form.append('kind', 'subscribers');
    await apiRequest('/api/imports', { method: 'POST', body: form });
    expect(requests[0]?.body).toBe(form);
    expect(requests[0]?.headers.get('Content-Type')).toBeNull();
  });

  it('turns a problem answer into a typed ApiError', async () => {
    signIn();
    mockFetch({
      'POST /api/users': () =>
        problemResponse(409, 'users.email_taken', {
          detail: 'Email already used',
          errors: [{ path: 'email', message: 'This email is already used.' }],
        }),
    });
    const error = await apiRequest('/api/users', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'users.email_taken',
      detail: 'Email already used',
      errors: [{ path: 'email', message: 'This email is already used.' }],
    });
  });

  it('reports an unreachable server as status 0', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(apiRequest('/api/users')).rejects.toMatchObject({ status: 0, code: 'network.unreachable' });
  });

  it('ends the session and goes to login on a 401 to an authenticated call', async () => {
    signIn();
    const goToLogin = vi.fn();
    setUnauthorizedHandler(goToLogin);
    mockFetch({ 'GET /api/users': () => problemResponse(401, 'auth.unauthorized') });
    await expect(apiRequest('/api/users')).rejects.toMatchObject({ status: 401 });
    expect(getIdToken()).toBeNull();
    expect(goToLogin).toHaveBeenCalledOnce();
  });

  it('leaves the session alone on a 401 of the login call itself', async () => {
    const goToLogin = vi.fn();
    setUnauthorizedHandler(goToLogin);
    mockFetch({ 'POST /auth/login': () => problemResponse(401, 'auth.invalid_credentials') });
    await expect(apiRequest('/auth/login', { method: 'POST', body: {} })).rejects.toMatchObject({
      status: 401,
    });
    expect(goToLogin).not.toHaveBeenCalled();
  });
});

describe('apiDownload', () => {
  it('returns the body as a blob with the name of its Content-Disposition', async () => {
    signIn();
    const requests = mockFetch({
      'GET /api/products/export': () =>
        new Response('\uFEFFid,name\n', {
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': 'attachment; filename="products-export-2025-03-07.csv"',
          },
        }),
    });
    const file = await apiDownload('/api/products/export', { accept: 'text/csv' });
    expect(file.filename).toBe('products-export-2025-03-07.csv');
    expect(await file.blob.text()).toContain('id,name');
    expect(requests[0]?.headers.get('Authorization')).toBe(`Bearer ${getIdToken()}`);
    expect(requests[0]?.headers.get('Accept')).toBe('text/csv');
  });

  it('turns a failed download into an ApiError', async () => {
    signIn();
    mockFetch({ 'GET /api/products/export': () => problemResponse(500, 'internal') });
    await expect(apiDownload('/api/products/export')).rejects.toBeInstanceOf(ApiError);
  });
});

describe('filenameFromContentDisposition', () => {
  it('prefers the UTF-8 name, then the plain one', () => {
    expect(
      filenameFromContentDisposition(
        `attachment; filename="export-_t_.csv"; filename*=UTF-8''export-%C3%A9t%C3%A9.csv`,
      ),
    ).toBe('export-été.csv');
    expect(filenameFromContentDisposition('attachment; filename="products-export-2025-03-07.csv"')).toBe(
      'products-export-2025-03-07.csv',
    );
    expect(filenameFromContentDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
  });

  it('gives null without a name and drops path separators', () => {
    expect(filenameFromContentDisposition(null)).toBeNull();
    expect(filenameFromContentDisposition('attachment')).toBeNull();
    expect(filenameFromContentDisposition('attachment; filename="../../etc/passwd"')).toBe(
      '.._.._etc_passwd',
    );
  });
});
