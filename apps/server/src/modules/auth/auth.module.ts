import type { AppModule, ModuleContext } from '../app-module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { MailRepository } from '../mail/mail.repository.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import { createAuthRepository } from './auth.repository.ts';
import { authRoutes } from './auth.routes.ts';
import { createAuthService } from './auth.service.ts';
import { createTokenService } from './tokens.ts';

/** How often the purge of old sign-in records runs (docs/decisions/011). */
export const SIGN_IN_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Sign-in, tokens, password links and the identity provider's routes (part 1 §7 Identity provider),
 * with the hourly purge of old sign-in records as a repeating job (`auth.purge`).
 */
export function createAuthModule(
  { db, clock, config, onMailQueued }: ModuleContext,
  needs: { usersRepository: UsersRepository; mailRepository: MailRepository; audit: AuditService },
) {
  const repository = createAuthRepository();
  const tokens = createTokenService({
    db,
    authRepository: repository,
    clock,
    ttlSeconds: config.tokenTtlSeconds,
    timeZone: config.orgTimezone,
  });
  const service = createAuthService({
    db,
    clock,
    tokens,
    authRepository: repository,
    usersRepository: needs.usersRepository,
    mailRepository: needs.mailRepository,
    audit: needs.audit,
    publicUrl: config.publicUrl,
    onMailQueued,
  });
  return {
    name: 'auth',
    service,
    repository,
    register: async (app) => {
      await app.register(authRoutes, {
        authService: service,
        loginRateLimitPerMinute: config.loginRateLimitPerMinute,
      });
    },
    jobs: [
      {
        kind: 'auth.purge',
        handler: async () => {
          await service.purgeSignInRecords();
        },
        repeat: {
          title: 'Purge of old sign-in records',
          everyMs: SIGN_IN_PURGE_INTERVAL_MS,
          leaseSeconds: 300,
        },
      },
    ],
  } satisfies AppModule & Record<string, unknown>;
}
