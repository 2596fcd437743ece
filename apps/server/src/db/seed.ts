import { randomBytes } from 'node:crypto';
import { systemClock } from '../lib/clock.ts';
import { hashPassword } from '../lib/passwords.ts';
import { createAuditRepository } from '../modules/audit/audit.repository.ts';
import { createAuditService } from '../modules/audit/audit.service.ts';
import { createAuthRepository } from '../modules/auth/auth.repository.ts';
import { stampMissingHashes } from '../modules/donations/receipts.repository.ts';
import { seedReferenceData } from '../modules/reference-lists/reference-lists.seed.ts';
import { createUsersRepository } from '../modules/users/users.repository.ts';
import type { DatabaseHandle } from './client.ts';

/** What first start created, so `main.ts` can tell the person how to sign in. */
export type PreparedDatabase = { createdAdministrator?: { email: string; generatedPassword?: string } };

/**
 * Migrates, then (once, under the start-up lock) creates the token signing secret, loads the reference
 * data not loaded before (currencies, countries, payment methods) and, on an empty
 * database, the first Administrator from `ADMIN_EMAIL`/`ADMIN_PASSWORD`, or `admin@example.org`
 * with a generated password ("First start" in
 * docs/spec/design.md §Contract decisions the spec leaves open). Safe to run on every start.
 */
export async function prepareDatabase(
  handle: DatabaseHandle,
  { adminEmail, adminPassword }: { adminEmail?: string | undefined; adminPassword?: string | undefined },
): Promise<PreparedDatabase> {
  await handle.migrate();
  const authRepository = createAuthRepository();
  const usersRepository = createUsersRepository();
  return handle.withStartupLock(async () => {
    if ((await authRepository.listSigningKeys(handle.db)).length === 0) {
      await authRepository.insertSigningKey(handle.db, { secret: randomBytes(32).toString('base64url') });
    }
    await seedReferenceData(handle.db);
    // Receipts issued before their hashes were kept get them, chained in number order (migration 0035).
    await handle.db.transaction((tx) => stampMissingHashes(tx));
    if ((await usersRepository.countUsers(handle.db)) > 0) return {};
    const email = adminEmail ?? 'admin@example.org';
    const generatedPassword = adminPassword ? undefined : randomBytes(12).toString('base64url');
    const password = adminPassword ?? generatedPassword ?? '';
    const passwordHash = await hashPassword(password);
    const audit = createAuditService({
      db: handle.db,
      repository: createAuditRepository(),
      clock: systemClock,
    });
    await handle.db.transaction(async (tx) => {
      const admin = await usersRepository.insertUser(tx, {
        fullName: 'Administrator',
        email,
        role: 'Administrator',
        passwordHash,
      });
      // The first account is the system's doing: no actor.
      await audit.record(tx, {
        actor: null,
        entity: { type: 'user', id: admin.id, label: admin.fullName },
        action: 'created',
        after: { fullName: admin.fullName, email: admin.email, role: admin.role },
      });
    });
    return { createdAdministrator: { email, generatedPassword } };
  });
}
