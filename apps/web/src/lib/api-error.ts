import { type Problem, problemSchema } from '@back-office/contract/common';

/** One field error of a problem answer (`path` is dotted, e.g. `email`). */
export type ApiFieldError = { path: string; message: string };

/**
 * A failed HTTP call (an `application/problem+json` answer, part 1 §8). `status` is 0 when the
 * server could not be reached. Details are for logs and field errors only, never shown as such
 * (part 1 §8: "Server error details are only logged, never shown").
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string | undefined;
  readonly errors: ApiFieldError[];

  constructor(init: { status: number; code: string; detail?: string; errors?: ApiFieldError[] }) {
    super(`HTTP ${init.status} ${init.code}${init.detail ? `: ${init.detail}` : ''}`);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
  }

  /** The message the server gave for one field, if any. */
  fieldMessage(path: string): string | undefined {
    return this.errors.find((error) => error.path === path)?.message;
  }
}

/**
 * The sentence for people when the server refused an export because too many are under way (429
 * `exports.too_many`, docs/decisions/011), to go in the error toast; undefined for any other failure.
 */
export function exportRefusedReason(error: unknown): string | undefined {
  return error instanceof ApiError && error.code === 'exports.too_many'
    ? 'Too many exports are under way: wait for one to finish'
    : undefined;
}

/** Builds an ApiError from a parsed problem body, or from the bare status when the body is not one. */
export function apiErrorFromProblem(status: number, body: unknown): ApiError {
  const parsed = problemSchema.safeParse(body);
  if (parsed.success) {
    const problem: Problem = parsed.data;
    return new ApiError({
      status,
      code: problem.code,
      detail: problem.detail,
      errors: problem.errors,
    });
  }
  return new ApiError({ status, code: `http.${status}` });
}

/**
 * The sentence for people when the server refused to issue a tax receipt because a gift in another
 * currency cannot be converted (409 `exchange_rates.missing`: no rate for its day; 409
 * `receipts.currency_unknown`: a currency without ISO code), to go in the error toast; undefined for
 * any other failure.
 */
export function receiptRefusedReason(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.code === 'exchange_rates.missing') {
    return 'A gift is in another currency and no exchange rate is known for its day: add it under Exchange rates';
  }
  if (error.code === 'receipts.currency_unknown') {
    return 'A currency of the receipt has no ISO code: set it under Reference lists, Currencies';
  }
  return undefined;
}
