import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirInUseError, openDatabase } from './db/client.ts';
import { prepareDatabase } from './db/seed.ts';
import { createCaptureTransport, createSmtpTransport } from './modules/mail/mail.transport.ts';

/** Starts the server: loadConfig -> openDatabase -> prepare -> buildApp -> listen; stops cleanly on SIGTERM/SIGINT. */
async function main() {
  // Milliseconds since the process started, at each step of the start-up (logged once ready).
  const startup = {
    modulesLoaded: performance.now(),
    databaseOpened: 0,
    databasePrepared: 0,
    appBuilt: 0,
    listening: 0,
  };
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  // buildApp adds the redaction and the serializers that keep tokens and personal data out.
  const logger = {
    level: config.logLevel,
    ...(process.stdout.isTTY
      ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } }
      : {}),
  };

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const readDatabase = config.databaseReplicaUrl
    ? await openDatabase({ databaseUrl: config.databaseReplicaUrl })
    : undefined;
  startup.databaseOpened = performance.now();
  const prepared = await prepareDatabase(database, config);
  startup.databasePrepared = performance.now();

  // The capture transport logs through the app's logger, which exists once the app is built.
  let logLine = (line: string): void => void process.stdout.write(`${line}\n`);
  const transport = config.smtpUrl
    ? createSmtpTransport({ smtpUrl: config.smtpUrl, from: config.mailFrom })
    : createCaptureTransport({
        dir: path.join(config.dataDir, 'mail'),
        from: config.mailFrom,
        log: (line) => logLine(line),
      });
  const app = await buildApp({
    config,
    database,
    ...(readDatabase ? { readDatabase } : {}),
    logger,
    mailTransport: transport,
  });
  logLine = (line) => app.log.info(line);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      // Stops the job runner too: running jobs stop at a safe point and are handed back.
      await app.close();
      transport.close?.();
      await database.close();
      await readDatabase?.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  startup.appBuilt = performance.now();
  await app.listen({ port: config.port, host: config.host });
  startup.listening = performance.now();
  app.log.info(
    { startupMs: Object.fromEntries(Object.entries(startup).map(([step, ms]) => [step, Math.round(ms)])) },
    'ready',
  );
  app.jobs.start();

  const address = `http://${config.host === '0.0.0.0' || config.host === '127.0.0.1' ? 'localhost' : config.host}:${config.port}`;
  const lines = [
    '',
    `  Back office is running at ${address}`,
    `  Database: ${database.kind === 'pglite' ? `embedded (PGlite) in ${path.join(config.dataDir, 'pglite')}` : 'PostgreSQL'}`,
    `  Email: ${transport.describe}`,
  ];
  const admin = prepared.createdAdministrator;
  if (admin) {
    lines.push('', '  First start: an Administrator account was created.', `    email:    ${admin.email}`);
    lines.push(
      admin.generatedPassword
        ? `    password: ${admin.generatedPassword}   (shown only this once)`
        : '    password: the value of ADMIN_PASSWORD',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Could not start: ${error instanceof DataDirInUseError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
