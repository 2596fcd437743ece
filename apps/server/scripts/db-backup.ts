/**
 * `npm run db:backup [-- <file>] [--force]`: writes one backup file of the server's database (same
 * configuration as the server: PostgreSQL at DATABASE_URL, else the embedded database in DATA_DIR) and
 * prints its path and size. Without a file: `DATA_DIR/backups/back-office-<engine>-<UTC timestamp>`
 * (`.tar.gz` for the embedded database, `.dump` for PostgreSQL). A relative file is taken from the folder
 * the command was typed in. `--force` replaces an existing file. The embedded database needs the server
 * stopped; PostgreSQL is dumped as a consistent snapshot while it runs. See src/db/backup.ts.
 */
import { parseArgs } from 'node:util';
import { backupDatabase, backupTargetFromConfig, defaultBackupFile } from '../src/db/backup.ts';
import {
  describeDatabase,
  formatSize,
  loadConfigOrExit,
  resolveFromInvocation,
  runCommand,
} from './db-backup-cli.ts';

const USAGE = 'Usage: npm run db:backup [-- <file>] [--force]';

async function main() {
  const { values, positionals } = parseArgs({
    options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help || positionals.length > 1) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfigOrExit();
  const target = backupTargetFromConfig(config);
  const file = positionals[0]
    ? resolveFromInvocation(positionals[0])
    : defaultBackupFile(target, config.dataDir);
  const log = (line: string) => process.stdout.write(`${line}\n`);
  log(`Backing up the ${describeDatabase(config)}...`);
  const result = await backupDatabase(target, { file, force: values.force, log });
  log(`Backup written: ${result.file}`);
  log(`Size: ${formatSize(result.bytes)}`);
}

runCommand('db:backup', main);
