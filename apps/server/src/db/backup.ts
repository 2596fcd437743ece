/**
 * Backups of the database (README.md §Backups), with each engine's own tool:
 * - embedded (PGlite in `DATA_DIR/pglite`): `PGlite.dumpDataDir('gzip')`, a gzipped tarball of the data
 *   directory, restored with PGlite's `loadDataDir` option. PGlite allows one process per data directory,
 *   so the server must be stopped; on Linux a running one is found through `/proc/<pid>/fd`.
 * - PostgreSQL (`DATABASE_URL`): `pg_dump --format=custom` (a consistent snapshot while the server runs)
 *   and `pg_restore`. Both must be on PATH and of the server's major version or newer.
 * A restore goes into an empty target only, unless `force` is given; afterwards the pending migrations
 * are applied so that the server starts on the latest schema.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { gunzipSync, constants as zlibConstants } from 'node:zlib';
import pg from 'pg';
import { ensureDataDirNotOpen, fromPglite, newPglite, openDatabase } from './client.ts';

/** Which database a backup or restore works on; see {@link backupTargetFromConfig}. */
export type BackupTarget = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; databaseUrl: string };

/**
 * What a file holds, from its first bytes: a PGlite data-directory tarball (`postgresMajor` from its
 * PG_VERSION), a `pg_dump --format=custom` archive, a plain SQL dump, or something else.
 */
export type BackupFileKind =
  | { kind: 'pglite'; postgresMajor: string }
  | { kind: 'pg_dump' }
  | { kind: 'sql' }
  | { kind: 'unknown' };

/** A refusal or failure to show as is (no stack): wrong file, non-empty target, missing tool, open database. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** Progress lines for the person running the command. */
type Log = (line: string) => void;

/** The database of the server's configuration: PostgreSQL when `databaseUrl` is set, else PGlite in `dataDir`. */
export function backupTargetFromConfig(config: {
  databaseUrl: string | undefined;
  dataDir: string;
}): BackupTarget {
  return config.databaseUrl
    ? { kind: 'postgres', databaseUrl: config.databaseUrl }
    : { kind: 'pglite', dataDir: config.dataDir };
}

/** `DATA_DIR/pglite`, where the embedded database lives (as `openDatabase` puts it). */
export function pgliteDir(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/** `2026-03-14T09:05:07.123Z` -> `20260314-090507` (UTC), for file and folder names. */
function timestamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
}

/**
 * Where `npm run db:backup` writes when given no file: `DATA_DIR/backups/back-office-<engine>-<UTC
 * timestamp>.tar.gz` (PGlite) or `.dump` (pg_dump custom format), whichever the engine.
 */
export function defaultBackupFile(target: BackupTarget, dataDir: string, now = new Date()): string {
  const name =
    target.kind === 'pglite'
      ? `back-office-pglite-${timestamp(now)}.tar.gz`
      : `back-office-postgres-${timestamp(now)}.dump`;
  return path.join(dataDir, 'backups', name);
}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const PG_DUMP_MAGIC = Buffer.from('PGDMP');
const TAR_BLOCK = 512;

/**
 * Reads the start of `file` and says what it holds (see {@link BackupFileKind}). A gzipped tar counts
 * as a PGlite backup when one of its first entries is `PG_VERSION`.
 * @throws BackupError when the file cannot be read.
 */
export async function detectBackupFile(file: string): Promise<BackupFileKind> {
  let head: Buffer;
  try {
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(64 * 1024);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new BackupError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (head.subarray(0, PG_DUMP_MAGIC.length).equals(PG_DUMP_MAGIC)) return { kind: 'pg_dump' };
  if (head.subarray(0, GZIP_MAGIC.length).equals(GZIP_MAGIC)) {
    const postgresMajor = pgVersionInTar(gunzipHead(head));
    return postgresMajor ? { kind: 'pglite', postgresMajor } : { kind: 'unknown' };
  }
  if (/^--\s*\n--\s*PostgreSQL database dump/.test(head.subarray(0, 200).toString('latin1'))) {
    return { kind: 'sql' };
  }
  return { kind: 'unknown' };
}

/** Decompresses as much of a truncated gzip stream as it holds (empty when it is not gzip after all). */
function gunzipHead(head: Buffer): Buffer {
  try {
    return gunzipSync(head, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  } catch {
    return Buffer.alloc(0);
  }
}

/** The content of the `PG_VERSION` entry among the tar entries in `tar` (a prefix of an archive), if any. */
function pgVersionInTar(tar: Buffer): string | undefined {
  let offset = 0;
  while (offset + TAR_BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + TAR_BLOCK);
    if (header.subarray(257, 262).toString('latin1') !== 'ustar') return undefined;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size =
      Number.parseInt(header.subarray(124, 136).toString('latin1').replace(/\0.*$/s, '').trim(), 8) || 0;
    const dataStart = offset + TAR_BLOCK;
    if (name.replace(/^\.?\//, '') === 'PG_VERSION') {
      return tar
        .subarray(dataStart, dataStart + size)
        .toString('latin1')
        .trim();
    }
    offset = dataStart + Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
  }
  return undefined;
}

/** Says why `file` cannot be restored on `target`, or nothing when its kind fits. */
function wrongKindMessage(file: string, found: BackupFileKind, target: BackupTarget): string | undefined {
  if (target.kind === 'pglite') {
    if (found.kind === 'pglite') return undefined;
    if (found.kind === 'pg_dump') {
      return `${file} is a PostgreSQL backup (pg_dump): restore it with DATABASE_URL set to a PostgreSQL database.`;
    }
  } else {
    if (found.kind === 'pg_dump') return undefined;
    if (found.kind === 'pglite') {
      return `${file} is a backup of the embedded database (PGlite): restore it with DATABASE_URL unset and DATA_DIR set.`;
    }
  }
  if (found.kind === 'sql') return `${file} is a plain SQL dump: load it with psql, not with db:restore.`;
  return `${file} is not a backup made by db:backup (neither a PGlite tarball nor a pg_dump custom archive).`;
}

/** {@link ensureDataDirNotOpen}, warning when it cannot tell. */
async function ensureNotOpen(dir: string, log: Log) {
  if (!(await ensureDataDirNotOpen(dir))) {
    log(`Could not check whether a server has ${dir} open (no /proc): make sure it is stopped.`);
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

async function isNonEmptyDir(dir: string): Promise<boolean> {
  return (await readdir(dir).catch(() => [] as string[])).length > 0;
}

/**
 * Runs a PostgreSQL client tool with the URL's password in `PGPASSWORD` rather than on the command
 * line (where `ps` would show it); its stderr goes into the error.
 * @throws BackupError when the tool is missing or exits non-zero.
 */
async function runPgTool(tool: 'pg_dump' | 'pg_restore', databaseUrl: string, args: string[]): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  await new Promise<void>((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${url.toString()}`], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              `${tool} was not found on PATH: install the PostgreSQL client tools of the server's major version ` +
                '(Debian: apt-get install postgresql-client).',
            )
          : error,
      );
    });
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${tool} failed (exit code ${code}):\n${stderr.trim()}`));
    });
  });
}

/** What a backup wrote. */
export type BackupResult = { file: string; bytes: number; engine: BackupTarget['kind'] };

/**
 * Writes one backup file of `target` to `file` (through `<file>.partial`, renamed when complete, so a
 * failed backup leaves no file that looks whole). PGlite: the server must be stopped; the database is
 * opened, checkpointed and dumped as a gzipped tarball. PostgreSQL: `pg_dump --format=custom
 * --no-owner`, a consistent snapshot even while the server writes.
 * @throws BackupError when `file` exists and `force` is not set, when there is no embedded database,
 * when a server has it open, or when pg_dump is missing or fails.
 */
export async function backupDatabase(
  target: BackupTarget,
  { file, force = false, log = () => {} }: { file: string; force?: boolean; log?: Log },
): Promise<BackupResult> {
  if (!force && (await exists(file))) {
    throw new BackupError(`${file} already exists: give another file name, or --force to replace it.`);
  }
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  try {
    if (target.kind === 'pglite') {
      const dir = pgliteDir(target.dataDir);
      if (!(await exists(path.join(dir, 'PG_VERSION')))) {
        throw new BackupError(`There is no embedded database in ${dir} (check DATA_DIR).`);
      }
      await ensureNotOpen(dir, log);
      const client = newPglite(dir);
      try {
        await client.waitReady;
        // A checkpoint first, so that the files in the tarball need no WAL replay when restored.
        await client.query('checkpoint');
        const tarball = await client.dumpDataDir('gzip');
        // PGlite's Blob type is the DOM's; Node's Readable.fromWeb wants node:stream/web's: the same object.
        const stream = tarball.stream() as unknown as WebReadableStream<Uint8Array>;
        await pipeline(Readable.fromWeb(stream), createWriteStream(partial));
      } finally {
        await client.close();
      }
    } else {
      await runPgTool('pg_dump', target.databaseUrl, ['--format=custom', '--no-owner', `--file=${partial}`]);
    }
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { file, bytes: (await stat(file)).size, engine: target.kind };
}

/** What a restore did. */
export type RestoreResult = {
  engine: BackupTarget['kind'];
  /** PGlite with `force`: where the database that was there before now is. */
  movedAsideTo?: string;
};

/**
 * Restores `file` (made by {@link backupDatabase} for the same engine) into `target`, then applies the
 * pending migrations. The target must be empty (no `DATA_DIR/pglite` or an empty one; a PostgreSQL
 * database without tables) unless `force` is given: then PGlite's old directory is moved aside to
 * `pglite.before-restore-<timestamp>` and PostgreSQL's objects are dropped first (`pg_restore --clean
 * --if-exists`, in one transaction). PGlite is loaded into a `pglite.restoring-<timestamp>` folder and
 * renamed into place only once it opens, so a failure leaves the data directory as it was.
 * @throws BackupError for a file of the other engine or not a backup, a non-empty target without
 * `force`, an embedded database open in another process, or a failing pg_restore.
 */
export async function restoreDatabase(
  target: BackupTarget,
  {
    file,
    force = false,
    now = new Date(),
    log = () => {},
  }: { file: string; force?: boolean; now?: Date; log?: Log },
): Promise<RestoreResult> {
  const found = await detectBackupFile(file);
  const wrongKind = wrongKindMessage(file, found, target);
  if (wrongKind) throw new BackupError(wrongKind);
  return target.kind === 'pglite'
    ? restorePglite(target.dataDir, file, { force, now, log, found })
    : restorePostgres(target.databaseUrl, file, { force });
}

async function restorePglite(
  dataDir: string,
  file: string,
  options: { force: boolean; now: Date; log: Log; found: BackupFileKind },
): Promise<RestoreResult> {
  const dir = pgliteDir(dataDir);
  const occupied = await isNonEmptyDir(dir);
  if (occupied) {
    await ensureNotOpen(dir, options.log);
    if (!options.force) {
      throw new BackupError(
        `${dir} already holds a database: db:restore only restores into an empty one. ` +
          'Stop the server and run it again with --force to move the current database aside and restore.',
      );
    }
  }
  const stamp = timestamp(options.now);
  const staging = path.join(dataDir, `pglite.restoring-${stamp}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    const client = newPglite(staging, { loadDataDir: await openAsBlob(file) });
    try {
      await client.waitReady;
      await fromPglite(client).migrate();
    } finally {
      await client.close();
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const major =
      options.found.kind === 'pglite' ? ` (it holds PostgreSQL ${options.found.postgresMajor} data)` : '';
    throw new BackupError(`Could not restore ${file}${major}: ${(error as Error).message}`);
  }
  let movedAsideTo: string | undefined;
  if (occupied) {
    movedAsideTo = path.join(dataDir, `pglite.before-restore-${stamp}`);
    await rename(dir, movedAsideTo);
  } else {
    await rm(dir, { recursive: true, force: true });
  }
  await rename(staging, dir);
  return { engine: 'pglite', ...(movedAsideTo ? { movedAsideTo } : {}) };
}

/** Tables, sequences and views outside PostgreSQL's own schemas, and schemas other than `public`. */
async function listUserObjects(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`
      select n.nspname || '.' || c.relname as name
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
         and n.nspname not in ('pg_catalog', 'information_schema')
         and n.nspname not like 'pg\\_%'
      union all
      select nspname from pg_namespace
       where nspname not in ('public', 'pg_catalog', 'information_schema') and nspname not like 'pg\\_%'
       order by 1`);
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

async function restorePostgres(databaseUrl: string, file: string, { force }: { force: boolean }) {
  const objects = await listUserObjects(databaseUrl);
  if (objects.length > 0 && !force) {
    const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
    const sample = objects.slice(0, 3).join(', ');
    throw new BackupError(
      `The database "${database}" is not empty (${objects.length} objects, e.g. ${sample}): db:restore only ` +
        'restores into an empty database. Create a new one, or run it again with --force to drop what the ' +
        'backup holds and restore it (stop the server first).',
    );
  }
  await runPgTool('pg_restore', databaseUrl, [
    '--no-owner',
    '--no-acl',
    '--single-transaction',
    '--exit-on-error',
    ...(objects.length > 0 ? ['--clean', '--if-exists'] : []),
    file,
  ]);
  const database = await openDatabase({ databaseUrl });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  return { engine: 'postgres' as const };
}
