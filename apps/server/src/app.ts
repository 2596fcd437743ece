import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { registerAccessControl } from './http/access-control.ts';
import { handleFrameworkError, registerErrorHandler } from './http/error-handler.ts';
import { registerExportLimits } from './http/export-limits.ts';
import { HTTP_LIMITS } from './http/limits.ts';
import { safeLogOptions } from './http/log-options.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import type { AppModule, ModuleContext } from './modules/app-module.ts';
import { createAuditModule } from './modules/audit/audit.module.ts';
import { createAuthModule } from './modules/auth/auth.module.ts';
import { createBankStatementsModule } from './modules/bank-statements/bank-statements.module.ts';
import { createCollectionsModule } from './modules/collections/collections.module.ts';
import { createDashboardModule } from './modules/dashboard/dashboard.module.ts';
import { createDonationsModule } from './modules/donations/donations.module.ts';
import { createDuplicatesModule } from './modules/duplicates/duplicates.module.ts';
import { createExchangeRatesModule } from './modules/exchange-rates/exchange-rates.module.ts';
import { createExportsModule } from './modules/exports/exports.module.ts';
import { createImportsModule } from './modules/imports/imports.module.ts';
import { createJobsModule } from './modules/jobs/jobs.module.ts';
import { createJobsRepository } from './modules/jobs/jobs.repository.ts';
import { createJobRunner, type JobRunner } from './modules/jobs/jobs.runner.ts';
import { createMailModule } from './modules/mail/mail.module.ts';
import { createMailRepository } from './modules/mail/mail.repository.ts';
import type { MailTransport } from './modules/mail/mail.transport.ts';
import { createMandatesModule } from './modules/mandates/mandates.module.ts';
import { createPersonalDataModule } from './modules/personal-data/personal-data.module.ts';
import { createPlansModule } from './modules/plans/plans.module.ts';
import { createProductsModule } from './modules/products/products.module.ts';
import { createReferenceListsModule } from './modules/reference-lists/reference-lists.module.ts';
import { createSalesModule } from './modules/sales/sales.module.ts';
import { createSettingsModule } from './modules/settings/settings.module.ts';
import { createSubscribersModule } from './modules/subscribers/subscribers.module.ts';
import { createUsersModule } from './modules/users/users.module.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once work done after an answer (password reset requests) has finished. */
    workSettled: () => Promise<void>;
    /**
     * The background job runner (docs/decisions/013): `main.ts` calls `start()`; tests and benchmarks
     * call `runDue()`. Closing the app stops it.
     */
    jobs: JobRunner;
  }
}

/** Everything the application needs, passed in one object (no globals). */
export type AppDeps = {
  config: Config;
  database: DatabaseHandle;
  /** The read replica (`DATABASE_REPLICA_URL`) the exports and the dashboard read; `database` when none. */
  readDatabase?: DatabaseHandle;
  clock?: Clock;
  /** Called after a transaction that queued mail has committed, besides waking the mail outbox job. */
  onMailQueued?: () => void;
  /** Where the mail outbox job sends; none means no `mail.outbox` job in this process. */
  mailTransport?: MailTransport;
  /**
   * Log level and destination (`stream`, `transport`); none means no logs. Whatever is given, requests
   * are logged by route pattern and secrets and personal data are kept out (http/log-options.ts).
   */
  logger?: Exclude<FastifyServerOptions['logger'], boolean>;
  /** Folder of the built client; defaults to `apps/web/dist`. */
  webDistDir?: string;
};

const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/**
 * Builds the Fastify application: security headers, problem+json errors, OpenAPI at `/api/docs`,
 * health checks, the identity provider, the API and the built client (docs/spec/design.md §Layout).
 */
export async function buildApp(deps: AppDeps) {
  const { config, database } = deps;
  const clock = deps.clock ?? systemClock;
  const db = database.db;

  const app = Fastify({
    logger: deps.logger ? { ...deps.logger, ...safeLogOptions } : false,
    // Unset TRUST_PROXY: X-Forwarded-For is ignored and the client address is the TCP peer (docs/decisions/011).
    trustProxy: config.trustProxy,
    bodyLimit: HTTP_LIMITS.bodyLimitBytes,
    requestTimeout: HTTP_LIMITS.requestTimeoutMs,
    keepAliveTimeout: HTTP_LIMITS.keepAliveTimeoutMs,
    forceCloseConnections: 'idle',
    frameworkErrors: handleFrameworkError,
    ajv: undefined,
  }).withTypeProvider<ZodTypeProvider>();
  app.server.headersTimeout = HTTP_LIMITS.headersTimeoutMs;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const jobsRepository = createJobsRepository();
  const runner = createJobRunner({
    db,
    repository: jobsRepository,
    logger: app.log,
    pollIntervalMs: config.mailPollIntervalMs,
  });
  const context: ModuleContext = {
    db,
    readDb: (deps.readDatabase ?? database).db,
    clock,
    config,
    timeZone: config.orgTimezone,
    jobs: jobsRepository,
    nudgeJobs: (kind) => runner.nudge(kind),
    onMailQueued: () => {
      deps.onMailQueued?.();
      runner.nudge('mail.outbox');
    },
  };

  // Modules in the order of what they need from each other (docs/architecture.md).
  const mailRepository = createMailRepository();
  const usersRepository = createUsersRepository();
  const audit = createAuditModule(context);
  const auth = createAuthModule(context, { usersRepository, mailRepository, audit: audit.service });
  const settings = createSettingsModule(context, { audit: audit.service });
  // Before the modules that convert amounts to euros (`exchangeRates.service.rateFor`).
  const exchangeRates = createExchangeRatesModule(context);
  const subscribers = createSubscribersModule(context, {
    mailRepository,
    settingsService: settings.service,
    authRepository: auth.repository,
  });
  const donations = createDonationsModule(context, {
    subscribersService: subscribers.service,
    settingsService: settings.service,
    exchangeRatesService: exchangeRates.service,
    mailRepository,
  });
  const sales = createSalesModule(context, {
    mailRepository,
    subscribersService: subscribers.service,
    settingsService: settings.service,
    subscriberEmailService: subscribers.emailService,
  });
  const mandates = createMandatesModule(context, {
    subscribersRepository: subscribers.repository,
    subscribersService: subscribers.service,
  });
  const modules: AppModule[] = [
    audit,
    auth,
    createUsersModule(context, { usersRepository, authService: auth.service, audit: audit.service }),
    createProductsModule(context, { audit: audit.service }),
    createReferenceListsModule(context, { audit: audit.service }),
    createDashboardModule(context),
    settings,
    exchangeRates,
    subscribers,
    donations,
    sales,
    createMailModule(context, {
      mailRepository,
      settingsService: settings.service,
      transport: deps.mailTransport,
      logger: app.log,
    }),
    createExportsModule(context, {
      sources: { subscribers: subscribers.exportSource, donations: donations.exportSource },
    }),
    createImportsModule(context, { subscribersRepository: subscribers.repository }),
    mandates,
    createPlansModule(context, {
      subscribersRepository: subscribers.repository,
      subscribersService: subscribers.service,
    }),
    createCollectionsModule(context, {
      settingsService: settings.service,
      subscribersService: subscribers.service,
      mailRepository,
      mandatesService: mandates.service,
    }),
    createBankStatementsModule(context, {
      recordPaymentOn: sales.payments.recordPaymentOn,
      recordPaymentsOn: sales.payments.recordPaymentsOn,
      subscribersService: subscribers.service,
    }),
    createDuplicatesModule(context, { subscribersRepository: subscribers.repository }),
    createPersonalDataModule(context, {
      audit: audit.service,
      subscribersService: subscribers.service,
      subscribersRepository: subscribers.repository,
      donations: donations.personalData,
      sales: sales.personalData,
    }),
  ];
  modules.push(
    createJobsModule(context, {
      repository: jobsRepository,
      queuedCancelHooks: Object.assign({}, ...modules.map((module) => module.queuedCancelHooks ?? {})),
    }),
  );
  for (const module of modules) {
    for (const job of module.jobs ?? []) {
      runner.register(job.kind, job.handler, { repeat: job.repeat, maxRunning: job.maxRunning });
    }
  }

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine injects its CSS variables in style elements.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
  });
  // API answers hold personal data and one-time links: no browser or proxy keeps them (docs/decisions/011).
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') || request.url.startsWith('/auth/')) {
      void reply.header('cache-control', 'no-store');
    }
  });
  await app.register(rateLimit, { global: false });
  registerErrorHandler(app);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Back office API', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  registerAccessControl(app, { authService: auth.service });
  registerExportLimits(app, { stallTimeoutSeconds: config.exportStallTimeoutSeconds });

  app.get('/healthz', { config: { access: 'public' }, schema: { hide: true } }, () => ({ status: 'ok' }));
  app.get('/readyz', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ok' };
    } catch {
      return reply.status(503).type('application/problem+json').send({
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        code: 'database.unavailable',
      });
    }
  });

  for (const module of modules) await module.register(app);

  const webDist = deps.webDistDir ?? DEFAULT_WEB_DIST;
  if (existsSync(path.join(webDist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  } else {
    app.get('/', { schema: { hide: true } }, (_request, reply) =>
      reply.type('text/plain').send('The web client is not built yet: run `npm run build -w apps/web`.'),
    );
  }

  // Reset requests answered but still at work, and running jobs, finish before the database closes.
  app.decorate('workSettled', () => auth.service.passwordResetsSettled());
  app.decorate('jobs', runner);
  app.addHook('onClose', async () => {
    await runner.stop();
    await auth.service.passwordResetsSettled();
  });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
