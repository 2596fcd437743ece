import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = async (port: number) => {
    // A hang guard, not a speed goal: a cold `tsx` start beside other test files can take half a minute.
    for (let attempt = 0; attempt < 900; attempt += 1) {
      const answer = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
      if (answer?.ok) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`server did not start:\n${output}`);
  };
  return { child, exited, ready, output: () => output };
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

// Each test starts one or two real processes (tsx, PGlite, migrations): the timeout only catches a hang.
describe('the server process', { timeout: 180_000 }, () => {
  it('exits non-zero naming every bad variable', async () => {
    const server = start({ PORT: 'abc', SMTP_URL: 'http://mail' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('PORT');
    expect(server.output()).toContain('SMTP_URL');
  });

  it('prints the address and a generated Administrator password on first start only, and survives a restart', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'back-office-'));
    const port = await freePort();
    const first = start({ DATA_DIR: dataDir, PORT: String(port) });
    await first.ready(port);
    expect(first.output()).toContain(`running at http://localhost:${port}`);
    const password = first.output().match(/password: (\S+)\s+\(shown only this once\)/)?.[1];
    expect(password).toBeDefined();
    // A second process on the same embedded database is refused, and the first one goes on serving.
    const intruder = start({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await intruder.exited).toBe(1);
    expect(intruder.output()).toContain(
      `The embedded database in ${path.join(dataDir, 'pglite')} is open in process ${first.child.pid}`,
    );
    expect(intruder.output()).not.toContain('    at ');
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = start({ DATA_DIR: dataDir, PORT: String(port) });
    await second.ready(port);
    expect(second.output()).not.toContain('shown only this once');
    const login = await fetch(`http://127.0.0.1:${port}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.org', password }),
    });
    expect(login.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(await readdir(path.join(dataDir, 'pglite'))).toContain('PG_VERSION');
  });

  it('finishes a request in flight when told to stop', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'back-office-'));
    const port = await freePort();
    // `info` logs each request as it arrives ("incoming request"), which says when it is in flight.
    const server = start({
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_PASSWORD: 'admin-password-1',
      LOG_LEVEL: 'info',
    });
    await server.ready(port);
    // Password hashing keeps the login busy long enough for the signal to arrive mid-request.
    const inFlight = fetch(`http://127.0.0.1:${port}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ email: 'admin@example.org', password: 'admin-password-1' }),
    });
    // The signal once the server has the request (a fixed wait sent it too early on a busy machine:
    // the request then arrived while closing and was rightly answered 503).
    for (
      let waited = 0;
      !/incoming request[^\n]*\/auth\/login|\/auth\/login[^\n]*incoming request/.test(server.output());
      waited += 1
    ) {
      if (waited > 6000) throw new Error(`the login never reached the server:\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    server.child.kill('SIGTERM');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(await server.exited).toBe(0);
  });
});
