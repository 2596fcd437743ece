/**
 * `npm run db:restore -- <file> [--force]`: restores a file made by `npm run db:backup` into the
 * server's database (PostgreSQL at DATABASE_URL, else the embedded database in DATA_DIR), then applies
 * pending migrations so the server starts on it. Only into an empty target, unless `--force`: then the
 * embedded database is moved aside to `DATA_DIR/pglite.before-restore-<timestamp>`, and on PostgreSQL
 * what the backup holds is dropped first (`pg_restore --clean --if-exists`). Stop the server first.
 * A backup of the other engine is refused with a message. See src/db/backup.ts.
 */
import { parseArgs } from 'node:util';
import { backupTargetFromConfig, restoreDatabase } from '../src/db/backup.ts';
import { describeDatabase, loadConfigOrExit, resolveFromInvocation, runCommand } from './db-backup-cli.ts';

const USAGE = 'Usage: npm run db:restore -- <file> [--force]';

async function main() {
  const { values, positionals } = parseArgs({
    options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  const [given] = positionals;
  if (values.help || given === undefined || positionals.length > 1) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfigOrExit();
  const file = resolveFromInvocation(given);
  const log = (line: string) => process.stdout.write(`${line}\n`);
  log(`Restoring ${file} into the ${describeDatabase(config)}...`);
  const result = await restoreDatabase(backupTargetFromConfig(config), { file, force: values.force, log });
  if (result.movedAsideTo) log(`The database that was there is now in ${result.movedAsideTo}`);
  log('Restored, and migrated to the latest schema: the server can start on it.');
}

runCommand('db:restore', main);
