import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerAccessControl } from './access-control.ts';
import { registerErrorHandler } from './error-handler.ts';
import { EXPORT_LIMITS, registerExportLimits } from './export-limits.ts';

/**
 * The export limits on a small app of their own: its one export route streams what each test hands it,
 * so that an export lasts exactly as long as the test says. Users are signed in by the bearer `user-N`.
 */
async function exportApp(stallTimeoutSeconds = 60) {
  const streams: Readable[] = [];
  let next: () => Readable = () => Readable.from(['id\n']);
  // Exports left open by a test are cut when it closes the app.
  const app = Fastify({ forceCloseConnections: true });
  registerAccessControl(app, {
    authService: {
      authenticate: async (token: string) => ({ id: Number(token.replace('user-', '')), role: 'User' }),
    } as never,
  });
  registerErrorHandler(app);
  registerExportLimits(app, { stallTimeoutSeconds });
  app.get('/api/things/export', { config: { access: 'signed-in', export: true } }, (_request, reply) => {
    const stream = next();
    streams.push(stream);
    return reply.type('text/csv').send(stream);
  });
  app.get('/api/things', { config: { access: 'signed-in' } }, () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  opened.push(app);
  return {
    app,
    port,
    streams,
    /** What the next export streams. */
    serve: (make: () => Readable) => {
      next = make;
    },
  };
}

const opened: Array<{ close: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

/** Starts a GET and resolves once its status and headers have arrived (the body may still be coming). */
function startGet(port: number, path: string, user: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      port,
      host: '127.0.0.1',
      path,
      headers: { authorization: `Bearer user-${user}` },
    });
    req.on('response', resolve).on('error', reject).end();
  });
}

async function readAll(response: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of response) text += chunk;
  return text;
}

describe('export limits', () => {
  it('lets a user run two exports at once and the server four, refusing more with 429 and Retry-After', async () => {
    const { port, serve } = await exportApp();
    const open: PassThrough[] = [];
    serve(() => {
      const stream = new PassThrough();
      stream.write('id\n');
      open.push(stream);
      return stream;
    });
    const first = await startGet(port, '/api/things/export', 1);
    const second = await startGet(port, '/api/things/export', 1);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);

    const third = await startGet(port, '/api/things/export', 1);
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe(String(EXPORT_LIMITS.retryAfterSeconds));
    expect(third.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(await readAll(third))).toMatchObject({ status: 429, code: 'exports.too_many' });

    // Others still get theirs, up to four in all; other requests are not limited.
    expect((await startGet(port, '/api/things/export', 2)).statusCode).toBe(200);
    expect((await startGet(port, '/api/things/export', 3)).statusCode).toBe(200);
    const fifth = await startGet(port, '/api/things/export', 4);
    expect(fifth.statusCode).toBe(429);
    expect(JSON.parse(await readAll(fifth)).detail).toContain('busy with other exports');
    expect((await startGet(port, '/api/things', 1)).statusCode).toBe(200);

    // A finished export gives its slot back.
    open[0]?.end();
    await readAll(first);
    const again = await startGet(port, '/api/things/export', 1);
    expect(again.statusCode).toBe(200);
  });

  it('gives the slot back when the client goes away in the middle of an export', async () => {
    const { port, serve, streams } = await exportApp();
    serve(() => {
      const stream = new PassThrough();
      stream.write('id\n');
      return stream;
    });
    const first = await startGet(port, '/api/things/export', 1);
    await startGet(port, '/api/things/export', 1);
    expect((await startGet(port, '/api/things/export', 1)).statusCode).toBe(429);
    first.destroy();
    await once(streams[0] as Readable, 'close');
    expect((await startGet(port, '/api/things/export', 1)).statusCode).toBe(200);
  });

  it('aborts an export whose client stops reading, destroying its stream and freeing its slot', async () => {
    const { port, serve, streams } = await exportApp(1);
    let produced = 0;
    // An export without end: 64 KB chunks for as long as anyone reads.
    serve(
      () =>
        new Readable({
          read() {
            produced += 1;
            this.push(Buffer.alloc(64 * 1024, 'x'));
          },
        }),
    );
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write('GET /api/things/export HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer user-1\r\n\r\n');
    socket.pause();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(streams).toHaveLength(1);
    const stream = streams[0] as Readable;
    const started = Date.now();
    await once(stream, 'close');
    expect(stream.destroyed).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
    const producedWhenAborted = produced;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(produced).toBe(producedWhenAborted);
    socket.destroy();
    // Both slots are free again.
    serve(() => Readable.from(['id\n']));
    const answers = await Promise.all([1, 2].map(() => startGet(port, '/api/things/export', 1)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
  });

  it('leaves a slow reader alone: a client that keeps reading is never aborted', async () => {
    const { port, serve } = await exportApp(1);
    let chunks = 0;
    serve(
      () =>
        new Readable({
          read() {
            chunks += 1;
            this.push(chunks > 40 ? null : Buffer.alloc(256 * 1024, 'y'));
          },
        }),
    );
    const response = await startGet(port, '/api/things/export', 1);
    let received = 0;
    response.on('data', (chunk: Buffer) => {
      received += chunk.length;
      // Read a little, then wait a while: slower than the server writes, but never stopped for 1 s.
      response.pause();
      setTimeout(() => response.resume(), 20);
    });
    await once(response, 'end');
    expect(received).toBe(40 * 256 * 1024);
  });
});
