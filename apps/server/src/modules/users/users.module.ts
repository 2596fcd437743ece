import type { AppModule, ModuleContext } from '../app-module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { UsersRepository } from './users.repository.ts';
import { usersRoutes } from './users.routes.ts';
import { createUsersService } from './users.service.ts';

/** Staff accounts (part 1 §2 Users, §7 Users). */
export function createUsersModule(
  { db, onMailQueued }: ModuleContext,
  needs: { usersRepository: UsersRepository; authService: AuthService; audit: AuditService },
) {
  const service = createUsersService({
    db,
    usersRepository: needs.usersRepository,
    authService: needs.authService,
    audit: needs.audit,
    onMailQueued,
  });
  return {
    name: 'users',
    register: async (app) => {
      await app.register(usersRoutes, { usersService: service });
    },
  } satisfies AppModule & Record<string, unknown>;
}
