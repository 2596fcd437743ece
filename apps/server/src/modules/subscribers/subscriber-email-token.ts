import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import type { AuthRepository } from '../auth/auth.repository.ts';

/** What is signed, so that an unsubscribe token can never pass for anything else signed with the key. */
const purpose = (subscriberId: number) => `unsubscribe-link:v1:${subscriberId}`;

const sign = (key: Buffer, subscriberId: number) =>
  createHmac('sha256', key).update(purpose(subscriberId)).digest('base64url');

/**
 * Tokens of the unsubscribe links (docs/decisions/006): HMAC-SHA256 of the subscriber id with the server's
 * signing secrets (`signing_keys`, the ones that sign sign-in tokens), so links keep working after a
 * restart and on every server. The newest key signs; every key verifies.
 */
export function createUnsubscribeTokens({
  db,
  authRepository,
}: {
  db: Database;
  authRepository: AuthRepository;
}) {
  async function keys() {
    const rows = await authRepository.listSigningKeys(db);
    return rows.map((row) => Buffer.from(row.secret, 'base64url'));
  }

  return {
    /** A signing function for many links at once (one database read). */
    signer: async () => {
      const [newest] = await keys();
      if (!newest) throw new Error('no signing key: prepareDatabase() was not run');
      return (subscriberId: number) => sign(newest, subscriberId);
    },

    /** True when `token` was made for `subscriberId`; compared in constant time. */
    verify: async (subscriberId: number, token: string) => {
      const given = Buffer.from(token);
      let valid = false;
      for (const key of await keys()) {
        const expected = Buffer.from(sign(key, subscriberId));
        if (expected.length === given.length && timingSafeEqual(expected, given)) valid = true;
      }
      return valid;
    },
  };
}

export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>;
