import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { prepareDatabase } from './db/seed.ts';
import { createPollingWorker } from './lib/polling-worker.ts';
import { createMailRepository } from './modules/mail/mail.repository.ts';
import { createCaptureTransport, createSmtpTransport } from './modules/mail/mail.transport.ts';
import { createMailWorker } from './modules/mail/mail.worker.ts';

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
  startup.databaseOpened = performance.now();
  const prepared = await prepareDatabase(database, config);
  startup.databasePrepared = performance.now();

  let worker: ReturnType<typeof createMailWorker> | undefined;
  const backgroundWorkers: Array<ReturnType<typeof createPollingWorker>> = [];
  const app = await buildApp({
    config,
    database,
    logger,
    onMailQueued: () => worker?.nudge(),
    registerBackgroundWork: (name, work) => {
      const background = createPollingWorker({
        work,
        pollIntervalMs: 5000,
        onError: (error) => app.log.warn({ reason: String(error), worker: name }, 'background work failed'),
      });
      backgroundWorkers.push(background);
      return background.nudge;
    },
  });
  const transport = config.smtpUrl
    ? createSmtpTransport({ smtpUrl: config.smtpUrl, from: config.mailFrom })
    : createCaptureTransport({
        dir: path.join(config.dataDir, 'mail'),
        from: config.mailFrom,
        log: (line) => app.log.info(line),
      });
  worker = createMailWorker({
    db: database.db,
    mailRepository: createMailRepository(),
    transport,
    logger: app.log,
    pollIntervalMs: config.mailPollIntervalMs,
    leaseSeconds: config.mailLeaseSeconds,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await Promise.all(backgroundWorkers.map((background) => background.stop()));
      await worker?.stop();
      transport.close?.();
      await database.close();
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
  worker.start();
  for (const background of backgroundWorkers) background.start();

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
    `Could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
