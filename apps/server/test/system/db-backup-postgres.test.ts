/**
 * Backups (README.md §Backups) on PostgreSQL, with the machine's real pg_dump and pg_restore: `npm run
 * db:backup` dumps database A while a server runs on it; `npm run db:restore` restores into a fresh
 * database B that then holds every row of every table (and every sequence) and serves sign-in; a database
 * with tables is never overwritten without --force, and with --force it ends up equal to the backup; a
 * backup of the embedded database is refused. The PGlite side is test/db-backup.test.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDatabase, detectBackupFile } from '../../src/db/backup.ts';
import { type DatabaseHandle, openDatabase, queryRows } from '../../src/db/client.ts';
import {
  type DatabaseFingerprint,
  fillRepresentativeData,
  fingerprintDatabase,
  rowsIn,
} from '../backup-fixtures.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../context.ts';
import { createTestDatabase, serverDir, signIn, startServer, stopAllServers } from './harness.ts';

const repoDir = path.resolve(serverDir, '..', '..');
type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;
let sourceDb: TestDatabase | undefined;
let restoredDb: TestDatabase | undefined;
let workDir = '';

async function withDatabase<T>(url: string, fn: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  const database = await openDatabase({ databaseUrl: url });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

const fingerprintOf = (url: string) => withDatabase(url, (database) => fingerprintDatabase(database.db));

/** Runs `npm run <script> -- ...args` from the repository root; resolves with its exit and output. */
function npmRun(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: repoDir,
      env: { ...process.env, DATA_DIR: workDir, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'back-office-pg-backup-'));
  sourceDb = await createTestDatabase('backup_source');
  restoredDb = await createTestDatabase('backup_restored');
  await withDatabase(sourceDb.url, (database) => fillRepresentativeData(database));
});

afterAll(async () => {
  await stopAllServers();
  await sourceDb?.drop();
  await restoredDb?.drop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('backups of PostgreSQL (pg_dump / pg_restore)', () => {
  it('back up A while its server runs, restore into a fresh B with every row, refuse a non-empty B without --force', async () => {
    if (!sourceDb || !restoredDb) throw new Error('no databases');
    expect(spawnSync('pg_dump', ['--version']).status, 'pg_dump on PATH').toBe(0);

    // A server on A, left to send the queued email, so that A no longer changes while we look.
    const server = await startServer({
      DATABASE_URL: sourceDb.url,
      DATA_DIR: path.join(workDir, 'server-a'),
    });
    await server.ready(120_000);
    await withDatabase(sourceDb.url, async (database) => {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const [pending] = await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from outbox_messages where status = 'pending'`,
        );
        if (pending?.n === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('the server did not send the queued email');
    });
    const source: DatabaseFingerprint = await fingerprintOf(sourceDb.url);
    for (const table of ['users', 'organisation_settings', 'subscribers', 'donations', 'receipts', 'sales']) {
      expect(rowsIn(source, table), table).toBeGreaterThan(0);
    }
    expect(rowsIn(source, 'drizzle.__drizzle_migrations')).toBeGreaterThan(0);

    const file = path.join(workDir, 'a.dump');
    const backedUp = await npmRun('db:backup', [file], { DATABASE_URL: sourceDb.url });
    expect(backedUp.code, backedUp.stderr).toBe(0);
    expect(backedUp.stdout).toContain(`Backup written: ${file}`);
    const size = (await stat(file)).size;
    expect(backedUp.stdout).toContain(`(${size.toLocaleString('en-GB')} bytes)`);
    expect(await detectBackupFile(file)).toEqual({ kind: 'pg_dump' });
    expect(await fingerprintOf(sourceDb.url)).toEqual(source);
    await stopAllServers();

    const restored = await npmRun('db:restore', [file], { DATABASE_URL: restoredDb.url });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('Restored, and migrated to the latest schema');
    expect(await fingerprintOf(restoredDb.url)).toEqual(source);

    // B now has tables: a second restore is refused and changes nothing.
    await withDatabase(restoredDb.url, (database) =>
      database.db.execute(sql`update organisation_settings set organisation_name = 'Changed after restore'`),
    );
    const changed = await fingerprintOf(restoredDb.url);
    expect(changed).not.toEqual(source);
    const refused = await npmRun('db:restore', [file], { DATABASE_URL: restoredDb.url });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not empty');
    expect(refused.stderr).toContain('--force');
    expect(await fingerprintOf(restoredDb.url)).toEqual(changed);

    const forced = await npmRun('db:restore', [file, '--force'], { DATABASE_URL: restoredDb.url });
    expect(forced.code, forced.stderr).toBe(0);
    expect(await fingerprintOf(restoredDb.url)).toEqual(source);

    // The server starts on the restored database and its accounts sign in.
    const onRestored = await startServer({
      DATABASE_URL: restoredDb.url,
      DATA_DIR: path.join(workDir, 'server-b'),
    });
    await onRestored.ready(120_000);
    const token = await signIn(onRestored.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const settings = await fetch(`${onRestored.url}/api/settings`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await settings.json()).toMatchObject({ organisationName: 'Les Amis du Léman' });
  });

  it('refuse a backup of the embedded database, an unknown file, and say when pg_dump is missing, with a clear message', async () => {
    if (!restoredDb) throw new Error('no database');
    const before = await fingerprintOf(restoredDb.url);
    // A tarball of a data directory, as PGlite's dumpDataDir makes (PG_VERSION first).
    const pgdata = path.join(workDir, 'pgdata');
    await mkdir(pgdata, { recursive: true });
    await writeFile(path.join(pgdata, 'PG_VERSION'), '18\n');
    const tarball = path.join(workDir, 'embedded.tar.gz');
    expect(spawnSync('tar', ['-czf', tarball, '-C', pgdata, 'PG_VERSION']).status).toBe(0);
    expect(await detectBackupFile(tarball)).toEqual({ kind: 'pglite', postgresMajor: '18' });

    const embedded = await npmRun('db:restore', [tarball, '--force'], { DATABASE_URL: restoredDb.url });
    expect(embedded.code).toBe(1);
    expect(embedded.stderr).toContain('is a backup of the embedded database (PGlite)');
    const notes = path.join(workDir, 'notes.txt');
    await writeFile(notes, 'not a backup');
    const unknown = await npmRun('db:restore', [notes], { DATABASE_URL: restoredDb.url });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('is not a backup made by db:backup');
    expect(await fingerprintOf(restoredDb.url)).toEqual(before);

    // Without PostgreSQL's client tools on PATH: a message that says what to install, and no file.
    const path_ = process.env.PATH;
    process.env.PATH = path.join(workDir, 'empty-bin');
    try {
      await expect(
        backupDatabase(
          { kind: 'postgres', databaseUrl: restoredDb.url },
          { file: path.join(workDir, 'none.dump') },
        ),
      ).rejects.toThrow('pg_dump was not found on PATH: install the PostgreSQL client tools');
    } finally {
      process.env.PATH = path_;
    }
    await expect(stat(path.join(workDir, 'none.dump'))).rejects.toThrow();
  });
});
