/**
 * HTTP limits (docs/decisions/011): a JSON request is small unless its route uploads a file (the logo in
 * Settings raises its own limit); a client must send its headers within 10 s and its whole request
 * within 30 s; an idle keep-alive connection is closed after 72 s (longer than load balancers' usual
 * 60 s, so they never reuse a connection the server is closing).
 */
export const HTTP_LIMITS = {
  bodyLimitBytes: 256 * 1024,
  uploadBodyLimitBytes: 2 * 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
} as const;
