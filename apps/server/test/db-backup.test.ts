/**
 * Backups (README.md §Backups) on the embedded database (PGlite in DATA_DIR/pglite): a backup restored into a
 * fresh data directory holds every row of every table (and every sequence), the server signs in on
 * it, a database is never overwritten without --force, files of the other engine are refused, and the
 * npm commands refuse while a server has the database open. Always PGlite, whatever TEST_DATABASE_URL;
 * the PostgreSQL side is test/system/db-backup-postgres.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import {
  BackupError,
  backupDatabase,
  defaultBackupFile,
  detectBackupFile,
  pgliteDir,
  restoreDatabase,
} from '../src/db/backup.ts';
import { type DatabaseHandle, fromPglite, newPglite, openDatabase } from '../src/db/client.ts';
import {
  type DatabaseFingerprint,
  fillRepresentativeData,
  fingerprintDatabase,
  rowsIn,
} from './backup-fixtures.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, testConfig } from './context.ts';
import { serverDir, startServer, stopAllServers } from './system/harness.ts';

const repoDir = path.resolve(serverDir, '..', '..');
let workDir = '';
let sourceDataDir = '';
let source: DatabaseFingerprint = {};
let backupFile = '';

/** Opens the PGlite database of `dataDir`, runs `fn` on it, closes it. */
async function withDatabase<T>(dataDir: string, fn: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

const fingerprintOf = (dataDir: string) =>
  withDatabase(dataDir, (database) => fingerprintDatabase(database.db));

/** Runs `npm run <script> -- ...args` from the repository root, as a person would; resolves with its exit and output. */
function npmRun(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: repoDir,
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
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
  workDir = await mkdtemp(path.join(tmpdir(), 'back-office-backup-'));
  sourceDataDir = path.join(workDir, 'source');
  source = await withDatabase(sourceDataDir, async (database) => {
    await fillRepresentativeData(database);
    return fingerprintDatabase(database.db);
  });
  backupFile = path.join(workDir, 'backup.tar.gz');
  await backupDatabase({ kind: 'pglite', dataDir: sourceDataDir }, { file: backupFile });
}, 300_000);

afterAll(async () => {
  await stopAllServers();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('backups of the embedded database (PGlite)', () => {
  it('hold representative data in every table, the migrations included', () => {
    for (const table of [
      'users',
      'organisation_settings',
      'subscribers',
      'subscriber_history',
      'donations',
      'receipts',
      'sales',
      'sale_lines',
      'products',
      'outbox_messages',
      'signing_keys',
    ]) {
      expect(rowsIn(source, table), table).toBeGreaterThan(0);
    }
    expect(rowsIn(source, 'drizzle.__drizzle_migrations')).toBeGreaterThan(0);
    expect(rowsIn(source, 'donations')).toBe(200);
  });

  it('write one gzipped tarball that restores into a fresh data directory with every row, and the app signs in on it', async () => {
    expect((await stat(backupFile)).size).toBeGreaterThan(100_000);
    expect(await detectBackupFile(backupFile)).toEqual({
      kind: 'pglite',
      postgresMajor: expect.stringMatching(/^\d+$/),
    });
    expect((await readdir(workDir)).filter((name) => name.includes('.partial'))).toEqual([]);

    const freshDataDir = path.join(workDir, 'fresh');
    const result = await restoreDatabase({ kind: 'pglite', dataDir: freshDataDir }, { file: backupFile });
    expect(result).toEqual({ engine: 'pglite' });
    expect((await readdir(freshDataDir)).sort()).toEqual(['pglite']);

    await withDatabase(freshDataDir, async (database) => {
      expect(await fingerprintDatabase(database.db)).toEqual(source);
      const app = await buildApp({ config: testConfig(), database, webDistDir: '/nonexistent' });
      try {
        const login = await app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
        });
        expect(login.statusCode).toBe(200);
        const settings = await app.inject({
          url: '/api/settings',
          headers: { authorization: `Bearer ${login.json().id_token}` },
        });
        expect(settings.json()).toMatchObject({ organisationName: 'Les Amis du Léman' });
      } finally {
        await app.close();
      }
    });
  }, 240_000);

  it('refuse to restore over an existing database; with force, move it aside and restore', async () => {
    const dataDir = path.join(workDir, 'occupied');
    const now = new Date('2026-05-04T03:02:01Z');
    await withDatabase(dataDir, async (database) => {
      await database.migrate();
      await database.db.execute(sql`insert into tags (name) values ('Was here before')`);
    });
    const before = await fingerprintOf(dataDir);

    const refused = restoreDatabase({ kind: 'pglite', dataDir }, { file: backupFile, now });
    await expect(refused).rejects.toThrow(BackupError);
    await expect(refused).rejects.toThrow(`${pgliteDir(dataDir)} already holds a database`);
    expect(await fingerprintOf(dataDir)).toEqual(before);

    const forced = await restoreDatabase({ kind: 'pglite', dataDir }, { file: backupFile, force: true, now });
    const aside = path.join(dataDir, 'pglite.before-restore-20260504-030201');
    expect(forced).toEqual({ engine: 'pglite', movedAsideTo: aside });
    expect(await fingerprintOf(dataDir)).toEqual(source);
    const old = newPglite(aside);
    try {
      await old.waitReady;
      expect(await fingerprintDatabase(fromPglite(old).db)).toEqual(before);
    } finally {
      await old.close();
    }
  }, 240_000);

  it('refuse a PostgreSQL backup, a plain SQL dump and other files, and leave the data directory alone', async () => {
    const dataDir = path.join(workDir, 'untouched');
    const pgDump = path.join(workDir, 'postgres.dump');
    await writeFile(pgDump, Buffer.concat([Buffer.from('PGDMP'), Buffer.from([1, 14, 0, 4, 8, 1, 1])]));
    const plain = path.join(workDir, 'plain.sql');
    await writeFile(plain, '--\n-- PostgreSQL database dump\n--\n\nSET statement_timeout = 0;\n');
    const other = path.join(workDir, 'notes.txt');
    await writeFile(other, 'not a backup');

    const target = { kind: 'pglite', dataDir } as const;
    await expect(restoreDatabase(target, { file: pgDump })).rejects.toThrow(
      `${pgDump} is a PostgreSQL backup (pg_dump): restore it with DATABASE_URL set`,
    );
    await expect(restoreDatabase(target, { file: plain })).rejects.toThrow('is a plain SQL dump');
    await expect(restoreDatabase(target, { file: other })).rejects.toThrow(
      'is not a backup made by db:backup',
    );
    await expect(restoreDatabase(target, { file: path.join(workDir, 'missing.tar.gz') })).rejects.toThrow(
      'Cannot read',
    );
    await expect(stat(dataDir)).rejects.toThrow();
  });

  it('refuse to back up over an existing file or a data directory without a database', async () => {
    await expect(
      backupDatabase({ kind: 'pglite', dataDir: sourceDataDir }, { file: backupFile }),
    ).rejects.toThrow(`${backupFile} already exists`);
    const empty = path.join(workDir, 'empty');
    await mkdir(empty, { recursive: true });
    await expect(
      backupDatabase({ kind: 'pglite', dataDir: empty }, { file: path.join(workDir, 'nothing.tar.gz') }),
    ).rejects.toThrow(`There is no embedded database in ${pgliteDir(empty)}`);
    await expect(stat(path.join(workDir, 'nothing.tar.gz'))).rejects.toThrow();
  });

  it('name the default file by engine and UTC time under DATA_DIR/backups', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    expect(defaultBackupFile({ kind: 'pglite', dataDir: '/srv/data' }, '/srv/data', at)).toBe(
      '/srv/data/backups/back-office-pglite-20260102-030405.tar.gz',
    );
    expect(defaultBackupFile({ kind: 'postgres', databaseUrl: 'postgres://h/db' }, '/srv/data', at)).toBe(
      '/srv/data/backups/back-office-postgres-20260102-030405.dump',
    );
  });

  it('npm run db:backup and db:restore: back up to DATA_DIR/backups, restore, refuse while the server runs', async () => {
    const backedUp = await npmRun('db:backup', [], { DATA_DIR: sourceDataDir });
    expect(backedUp.stderr).not.toContain('db:backup');
    expect(backedUp.code).toBe(0);
    const written = /Backup written: (\S+)/.exec(backedUp.stdout)?.[1] ?? '';
    expect(path.dirname(written)).toBe(path.join(sourceDataDir, 'backups'));
    expect(path.basename(written)).toMatch(/^back-office-pglite-\d{8}-\d{6}\.tar\.gz$/);
    const size = (await stat(written)).size;
    expect(backedUp.stdout).toContain(`(${size.toLocaleString('en-GB')} bytes)`);

    const cliDataDir = path.join(workDir, 'cli');
    const restored = await npmRun('db:restore', [written], { DATA_DIR: cliDataDir });
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('Restored, and migrated to the latest schema');
    expect(await fingerprintOf(cliDataDir)).toEqual(source);

    const server = await startServer({ DATA_DIR: cliDataDir });
    await server.ready(120_000);
    const login = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);

    const whileRunning = await npmRun('db:backup', [path.join(workDir, 'while-running.tar.gz')], {
      DATA_DIR: cliDataDir,
    });
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.stderr).toContain(`is open in process ${server.child.pid}`);
    expect(whileRunning.stderr).toContain('stop the server first');
    await expect(stat(path.join(workDir, 'while-running.tar.gz'))).rejects.toThrow();

    const forcedWhileRunning = await npmRun('db:restore', [written, '--force'], { DATA_DIR: cliDataDir });
    expect(forcedWhileRunning.code).toBe(1);
    expect(forcedWhileRunning.stderr).toContain(`is open in process ${server.child.pid}`);
    expect((await readdir(cliDataDir)).filter((name) => name.startsWith('pglite'))).toEqual(['pglite']);
  }, 300_000);
});
