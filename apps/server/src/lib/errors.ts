/** One field error: `path` is dotted (`email`, `lines.0.quantity`). */
export type FieldError = { path: string; message: string };

/**
 * An error the HTTP layer turns into `application/problem+json` ("Errors" in
 * docs/spec/design.md §Contract decisions the spec leaves open).
 * `code` is dotted lowercase (`users.not_found`); `status` is the HTTP status.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: string,
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldError[],
  ) {
    super(detail ?? title);
  }
}

/**
 * Makes a factory for one kind of error, e.g.
 * `createErrorFactory({ code: 'users.not_found', status: 404, title: 'User not found' })`.
 * The factory takes an optional detail and field errors.
 */
export function createErrorFactory(definition: { code: string; status: number; title: string }) {
  return (detail?: string, errors?: FieldError[]) =>
    new AppError(definition.code, definition.status, definition.title, detail, errors);
}

export const createUnauthenticatedError = createErrorFactory({
  code: 'auth.unauthenticated',
  status: 401,
  title: 'Unauthorized',
});

export const createForbiddenError = createErrorFactory({
  code: 'auth.forbidden',
  status: 403,
  title: 'Forbidden',
});
