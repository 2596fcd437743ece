/**
 * What the system tests share: real server processes (`src/main.ts`) on loopback ports, fresh
 * PostgreSQL databases made for one test file, and an SMTP sink. System tests run with
 * `npm run test:system` (see `vitest.system.config.ts`), against the PostgreSQL server at
 * SYSTEM_DATABASE_URL (an account that may create databases; default
 * postgres://postgres@127.0.0.1:5432/postgres). `.ci/run` runs them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';

export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * A small pool of connections to a test database, for the test's own queries. Its idle connections
 * are cut when the database is dropped at the end (`with (force)`), sometimes while the pool is still
 * closing them: that error is expected, and must not fail the run as an unhandled one.
 */
export function openPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  return pool;
}

/** The PostgreSQL server the system tests make their databases on. */
export const SYSTEM_DATABASE_URL =
  process.env.SYSTEM_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A free loopback TCP port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A running server process: its port, URL, exit and everything it printed. */
export type ServerProcess = {
  child: ChildProcess;
  port: number;
  url: string;
  exited: Promise<number | null>;
  output: () => string;
  /** Resolves when `/readyz` answers 200; throws with the output after `timeoutMs`. */
  ready: (timeoutMs?: number) => Promise<void>;
};

const running: ChildProcess[] = [];

/**
 * Starts `src/main.ts` in a child process with only PATH and `env` (plus PORT, HOST 127.0.0.1 and
 * LOG_LEVEL warn unless given). Call {@link stopAllServers} in `afterEach`/`afterAll`.
 */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const ready = async (timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
      const answer = await fetch(`${url}/readyz`).catch(() => undefined);
      if (answer?.ok) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`server did not become ready in ${timeoutMs} ms:\n${output}`);
  };
  return { child, port, url, exited, output: () => output, ready };
}

/** Kills (SIGKILL) every server process started by {@link startServer} that still runs. */
export async function stopAllServers() {
  const children = running.splice(0);
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }),
  );
}

/** A fresh, empty PostgreSQL database on the {@link SYSTEM_DATABASE_URL} server; `drop()` removes it. */
export async function createTestDatabase(
  prefix = 'system',
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SYSTEM_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(SYSTEM_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: SYSTEM_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** One message as the sink received it: envelope recipients, raw text and its Message-ID header. */
export type ReceivedMail = { to: string[]; raw: string; messageId: string | undefined };

/** An SMTP server on a loopback port that keeps every message it accepts. */
export async function startSmtpSink(): Promise<{
  url: string;
  received: ReceivedMail[];
  close: () => Promise<void>;
}> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString();
        received.push({
          to: session.envelope.rcptTo.map((address) => address.address),
          raw,
          messageId: /^message-id:\s*(\S+)/im.exec(raw)?.[1],
        });
        callback();
      });
    },
  });
  // A client killed mid-conversation resets its connection: that is not the sink's failure, and an
  // unheard 'error' event would end the test process.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Signs in through `/auth/login` and returns the id token. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!answer.ok) throw new Error(`sign-in failed: ${answer.status} ${await answer.text()}`);
  const { id_token } = (await answer.json()) as { id_token: string };
  return id_token;
}

/**
 * A round-robin HTTP load balancer on a loopback port: request N goes to `targets[N % targets.length]`
 * (whatever the connection it came on), as any HTTP balancer in front of stateless servers would do.
 * `served[i]` counts the requests sent to `targets[i]`; an unreachable target answers 502.
 */
export async function startRoundRobinBalancer(targets: string[]): Promise<{
  url: string;
  served: number[];
  close: () => Promise<void>;
}> {
  const served = targets.map(() => 0);
  let next = 0;
  const server = createHttpServer((request, response) => {
    const index = next % targets.length;
    next += 1;
    served[index] = (served[index] ?? 0) + 1;
    const upstream = httpRequest(
      new URL(request.url ?? '/', targets[index]),
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `check` every `intervalMs` until it returns true; throws `message()` after `timeoutMs`. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  {
    timeoutMs = 60_000,
    intervalMs = 100,
    message = () => 'condition not met',
  }: { timeoutMs?: number; intervalMs?: number; message?: () => string } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${message()}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
