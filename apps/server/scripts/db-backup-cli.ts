/**
 * What `db-backup.ts` and `db-restore.ts` share: the configuration (the server's own `loadConfig`),
 * file paths relative to where the command was typed, sizes for people, and one way to fail.
 */
import path from 'node:path';
import { type Config, ConfigError, loadConfig } from '../src/config.ts';
import { BackupError } from '../src/db/backup.ts';
import { DataDirInUseError } from '../src/db/client.ts';

/** The server's configuration; a bad variable ends the process with the message and exit code 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** `file` made absolute against the folder the command was typed in (`INIT_CWD` under npm), as `DATA_DIR` is. */
export function resolveFromInvocation(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

/** `4565991` -> `4.4 MB (4,565,991 bytes)`. */
export function formatSize(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const short = unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
  return unit === 0 ? short : `${short} (${bytes.toLocaleString('en-GB')} bytes)`;
}

/** Describes the database of `config` in one line. */
export function describeDatabase(config: Config): string {
  return config.databaseUrl
    ? `PostgreSQL database "${decodeURIComponent(new URL(config.databaseUrl).pathname.slice(1))}" (DATABASE_URL)`
    : `embedded database (PGlite) in ${path.join(config.dataDir, 'pglite')}`;
}

/**
 * Runs `main`; a {@link BackupError} or {@link DataDirInUseError} is printed without a stack and exits 1,
 * anything else with its stack.
 */
export function runCommand(name: string, main: () => Promise<void>) {
  main().catch((error: unknown) => {
    if (error instanceof BackupError || error instanceof DataDirInUseError)
      process.stderr.write(`${name}: ${error.message}\n`);
    else {
      process.stderr.write(
        `${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    }
    process.exit(1);
  });
}
