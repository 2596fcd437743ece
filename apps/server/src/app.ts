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
import { safeLogOptions } from './http/log-options.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createAuditRepository } from './modules/audit/audit.repository.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { createAuditService } from './modules/audit/audit.service.ts';
import { createAuthRepository } from './modules/auth/auth.repository.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { type AuthService, createAuthService } from './modules/auth/auth.service.ts';
import { createTokenService } from './modules/auth/tokens.ts';
import { createDashboardRepository } from './modules/dashboard/dashboard.repository.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { annualRunsRoutes } from './modules/donations/annual-runs.routes.ts';
import { createAnnualRunsService } from './modules/donations/annual-runs.service.ts';
import { createDonationsRepository } from './modules/donations/donations.repository.ts';
import { donationsRoutes } from './modules/donations/donations.routes.ts';
import { createDonationsService } from './modules/donations/donations.service.ts';
import { createDonationsExportRepository } from './modules/donations/donations-export.repository.ts';
import { donationsExportRoutes } from './modules/donations/donations-export.routes.ts';
import { createReceiptsRepository } from './modules/donations/receipts.repository.ts';
import { receiptsRoutes } from './modules/donations/receipts.routes.ts';
import { createReceiptsService } from './modules/donations/receipts.service.ts';
import { createMailRepository } from './modules/mail/mail.repository.ts';
import { createProductsRepository } from './modules/products/products.repository.ts';
import { productsRoutes } from './modules/products/products.routes.ts';
import { createProductsService } from './modules/products/products.service.ts';
import { createStockMovementsRepository } from './modules/products/stock-movements.repository.ts';
import { createReferenceListsRepository } from './modules/reference-lists/reference-lists.repository.ts';
import { referenceListsRoutes } from './modules/reference-lists/reference-lists.routes.ts';
import { createReferenceListsService } from './modules/reference-lists/reference-lists.service.ts';
import { createCreditNotesRepository } from './modules/sales/credit-notes.repository.ts';
import { creditNotesRoutes } from './modules/sales/credit-notes.routes.ts';
import { createCreditNotesService } from './modules/sales/credit-notes.service.ts';
import { createSalesRepository } from './modules/sales/sales.repository.ts';
import { salesRoutes } from './modules/sales/sales.routes.ts';
import { createSalesService } from './modules/sales/sales.service.ts';
import { salesEmailRoutes } from './modules/sales/sales-email.routes.ts';
import { createSalesExportRepository } from './modules/sales/sales-export.repository.ts';
import { salesExportRoutes } from './modules/sales/sales-export.routes.ts';
import { createSettingsRepository } from './modules/settings/settings.repository.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { createSettingsService } from './modules/settings/settings.service.ts';
import { createSubscriberEmailRepository } from './modules/subscribers/subscriber-email.repository.ts';
import { subscriberEmailRoutes } from './modules/subscribers/subscriber-email.routes.ts';
import { createSubscriberEmailService } from './modules/subscribers/subscriber-email.service.ts';
import { createUnsubscribeTokens } from './modules/subscribers/subscriber-email-token.ts';
import { createSubscriberExportRepository } from './modules/subscribers/subscriber-export.repository.ts';
import { subscriberExportRoutes } from './modules/subscribers/subscriber-export.routes.ts';
import { createSubscriberExportService } from './modules/subscribers/subscriber-export.service.ts';
import { createSubscriberRumRepository } from './modules/subscribers/subscriber-rum.repository.ts';
import { subscriberRumRoutes } from './modules/subscribers/subscriber-rum.routes.ts';
import { createSubscriberRumService } from './modules/subscribers/subscriber-rum.service.ts';
import { createSubscribersRepository } from './modules/subscribers/subscribers.repository.ts';
import { subscribersRoutes } from './modules/subscribers/subscribers.routes.ts';
import { createSubscribersService } from './modules/subscribers/subscribers.service.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { createUsersService } from './modules/users/users.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once work done after an answer (password reset requests) has finished. */
    workSettled: () => Promise<void>;
  }
}

/** Everything the application needs, passed in one object (no globals). */
export type AppDeps = {
  config: Config;
  database: DatabaseHandle;
  clock?: Clock;
  /** Called after a transaction that queued mail has committed (wakes the mail worker). */
  onMailQueued?: () => void;
  /**
   * Log level and destination (`stream`, `transport`); none means no logs. Whatever is given, requests
   * are logged by route pattern and secrets and personal data are kept out (http/log-options.ts).
   */
  logger?: Exclude<FastifyServerOptions['logger'], boolean>;
  /**
   * Hands background work (the annual receipt run) to whoever runs workers: `main.ts` polls it; tests
   * call it. Returns a function that asks for a run soon.
   */
  registerBackgroundWork?: (name: string, work: (shouldStop: () => boolean) => Promise<number>) => () => void;
  /** Folder of the built client; defaults to `apps/web/dist`. */
  webDistDir?: string;
};

/**
 * HTTP limits (docs/decisions/011): a JSON request is small unless its route uploads a file (the logo in
 * Settings raises its own limit); a client must send its headers within 10 s and its whole request
 * within 30 s; an idle keep-alive connection is closed after 72 s (longer than load balancers' usual
 * 60 s, so they never reuse a connection the server is closing).
 */
export const HTTP_LIMITS = {
  bodyLimitBytes: 256 * 1024,
  uploadBodyLimitBytes: 2 * 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
} as const;

/** How often the scheduled purge of old sign-in records runs (docs/decisions/011). */
export const SIGN_IN_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The scheduled purge of failed sign-ins, spent lockouts, ended sessions and used links: the workers
 * poll every few seconds, the purge runs once an hour of the clock. Resolves with the rows deleted.
 */
export function purgeSignInRecordsHourly(
  authService: Pick<AuthService, 'purgeSignInRecords'>,
  clock: Clock,
): () => Promise<number> {
  let lastRun: number | undefined;
  return async () => {
    const now = clock.now().getTime();
    if (lastRun !== undefined && now - lastRun < SIGN_IN_PURGE_INTERVAL_MS) return 0;
    lastRun = now;
    const purged = await authService.purgeSignInRecords();
    return purged.failures + purged.lockouts + purged.sessions + purged.links;
  };
}

const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/**
 * Builds the Fastify application: security headers, problem+json errors, OpenAPI at `/api/docs`,
 * health checks, the identity provider, the API and the built client (docs/spec/design.md §Layout).
 */
export async function buildApp(deps: AppDeps) {
  const { config, database } = deps;
  const clock = deps.clock ?? systemClock;
  const onMailQueued = deps.onMailQueued ?? (() => {});
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

  const authRepository = createAuthRepository();
  const usersRepository = createUsersRepository();
  const mailRepository = createMailRepository();
  const timeZone = config.orgTimezone;
  const auditService = createAuditService({ db, repository: createAuditRepository({ timeZone }), clock });
  const tokens = createTokenService({
    db,
    authRepository,
    clock,
    ttlSeconds: config.tokenTtlSeconds,
    timeZone: config.orgTimezone,
  });
  const authService = createAuthService({
    db,
    clock,
    tokens,
    authRepository,
    usersRepository,
    mailRepository,
    audit: auditService,
    publicUrl: config.publicUrl,
    onMailQueued,
  });
  const usersService = createUsersService({
    db,
    clock,
    usersRepository,
    authRepository,
    authService,
    audit: auditService,
    onMailQueued,
  });
  const productsService = createProductsService({
    db,
    repository: createProductsRepository(),
    stock: createStockMovementsRepository(),
    audit: auditService,
  });
  const referenceListsService = createReferenceListsService({
    db,
    repository: createReferenceListsRepository(),
    audit: auditService,
  });
  const settingsService = createSettingsService({
    db,
    timeZone,
    repository: createSettingsRepository(),
    audit: auditService,
  });
  const subscribersRepository = createSubscribersRepository({ timeZone });
  const subscribersService = createSubscribersService({
    db,
    repository: subscribersRepository,
    mailRepository,
  });
  const subscriberExportService = createSubscriberExportService({
    db,
    timeZone,
    repository: createSubscriberExportRepository({ timeZone }),
  });
  const subscriberRumService = createSubscriberRumService({
    db,
    repository: createSubscriberRumRepository(),
    subscribersRepository,
    subscribersService,
    settingsService,
    clock,
  });
  const subscriberEmailService = createSubscriberEmailService({
    db,
    repository: createSubscriberEmailRepository(),
    subscribersRepository,
    subscribersService,
    settingsService,
    mailRepository,
    unsubscribeTokens: createUnsubscribeTokens({ db, authRepository }),
    publicUrl: config.publicUrl,
    onMailQueued,
  });
  const donationsService = createDonationsService({
    db,
    clock,
    timeZone,
    repository: createDonationsRepository(),
    subscribersService,
  });
  const receiptsRepository = createReceiptsRepository();
  const receiptsService = createReceiptsService({
    db,
    clock,
    repository: receiptsRepository,
    mailRepository,
    settingsService,
    subscribersService,
    onMailQueued,
  });
  const annualRunsService = createAnnualRunsService({
    db,
    receiptsService,
    receiptsRepository,
    settingsService,
    onMailQueued,
  });
  deps.registerBackgroundWork?.('sign-in records purge', purgeSignInRecordsHourly(authService, clock));
  const nudgeAnnualRuns =
    deps.registerBackgroundWork?.('annual receipt runs', annualRunsService.work) ?? (() => {});
  const salesRepository = createSalesRepository({ timeZone });
  const creditNotesRepository = createCreditNotesRepository();
  const salesService = createSalesService({
    db,
    repository: salesRepository,
    subscribersService,
    settingsService,
    creditNotes: creditNotesRepository,
  });
  const creditNotesService = createCreditNotesService({
    db,
    salesRepository,
    repository: creditNotesRepository,
    subscribersService,
    settingsService,
  });

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

  registerAccessControl(app, { authService });
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

  await app.register(authRoutes, { authService, loginRateLimitPerMinute: config.loginRateLimitPerMinute });
  await app.register(usersRoutes, { usersService });
  await app.register(productsRoutes, { productsService, clock, timeZone });
  await app.register(referenceListsRoutes, { referenceListsService });
  await app.register(dashboardRoutes, { db, repository: createDashboardRepository() });
  await app.register(settingsRoutes, { settingsService, bodyLimit: HTTP_LIMITS.uploadBodyLimitBytes });
  await app.register(auditRoutes, { auditService });
  await app.register(subscribersRoutes, { subscribersService });
  await app.register(subscriberExportRoutes, { subscriberExportService });
  await app.register(subscriberRumRoutes, { subscriberRumService });
  await app.register(subscriberEmailRoutes, { subscriberEmailService });
  await app.register(donationsExportRoutes, { db, repository: createDonationsExportRepository(), timeZone });
  await app.register(donationsRoutes, { donationsService });
  await app.register(receiptsRoutes, { receiptsService });
  await app.register(annualRunsRoutes, { annualRunsService, onStarted: nudgeAnnualRuns });
  await app.register(salesExportRoutes, { db, repository: createSalesExportRepository({ timeZone }) });
  await app.register(salesRoutes, { salesService });
  await app.register(creditNotesRoutes, { creditNotesService });
  await app.register(salesEmailRoutes, { subscriberEmailService, timeZone });

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

  // Reset requests answered but still at work finish before the database closes.
  app.decorate('workSettled', () => authService.passwordResetsSettled());
  app.addHook('onClose', () => authService.passwordResetsSettled());

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
