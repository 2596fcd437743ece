import { and, eq, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { subscribers } from './subscribers.table.ts';

/** SQL of the mandate letter (part 2 §7 `/api/subscribers/{id}/rum`). */
export function createSubscriberRumRepository() {
  return {
    /** True when a subscriber other than `exceptId` (deleted or not) already has mandate reference `rum`. */
    isReferenceTaken: async (db: Executor, { rum, exceptId }: { rum: string; exceptId: number }) => {
      const rows = await db
        .select({ id: subscribers.id })
        .from(subscribers)
        .where(and(eq(subscribers.rum, rum), ne(subscribers.id, exceptId)))
        .limit(1);
      return rows.length > 0;
    },
  };
}

export type SubscriberRumRepository = ReturnType<typeof createSubscriberRumRepository>;
