import { createServer } from 'node:net';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databaseUnavailableReason, isDatabaseUnavailableError } from './postgres-errors.ts';

/** A PostgreSQL error as node-postgres hands it over: a message and a SQLSTATE `code`. */
const postgresError = (code: string, message: string) => Object.assign(new Error(message), { code });
/** How Drizzle hands it to the handler: "Failed query" with the query's values, the driver's error as cause. */
const wrapped = (cause: Error) => new DrizzleQueryError('select * from donations where id = $1', [7], cause);

describe('isDatabaseUnavailableError (503 rather than 500)', () => {
  it('knows a refused connection, as node-postgres reports it', async () => {
    // A port that nothing listens on.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'nobody', connectionTimeoutMillis: 2000 });
    const error = await client.connect().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isDatabaseUnavailableError(error)).toBe(true);
    expect(databaseUnavailableReason(wrapped(error as Error))).toBe('ECONNREFUSED');
  });

  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P03', 'the database system is starting up'],
    ['08006', 'connection failure'],
    ['53300', 'sorry, too many clients already'],
    ['ECONNRESET', 'read ECONNRESET'],
  ])('knows %s, bare or wrapped by Drizzle', (code, message) => {
    expect(databaseUnavailableReason(postgresError(code, message))).toBe(code);
    expect(databaseUnavailableReason(wrapped(postgresError(code, message)))).toBe(code);
  });

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error and is not queryable',
  ])('knows the driver saying "%s"', (message) => {
    expect(databaseUnavailableReason(wrapped(new Error(message)))).toBe(message);
  });

  it('finds the cause inside an AggregateError (one error per address tried)', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailableError(new AggregateError([refused], 'connect failed'))).toBe(true);
  });

  it('leaves refusals of the statement itself, and text that only quotes the words, to the others', () => {
    expect(isDatabaseUnavailableError(wrapped(postgresError('23505', 'duplicate key value')))).toBe(false);
    expect(isDatabaseUnavailableError(wrapped(postgresError('22001', 'value too long')))).toBe(false);
    // Drizzle's own message quotes the values, which may say anything.
    const quoting = new DrizzleQueryError(
      'insert into notes values ($1)',
      ['Connection terminated'],
      undefined,
    );
    expect(isDatabaseUnavailableError(quoting)).toBe(false);
    expect(isDatabaseUnavailableError(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailableError(undefined)).toBe(false);
  });
});
