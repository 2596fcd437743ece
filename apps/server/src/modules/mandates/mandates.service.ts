import { calendarDay } from '@back-office/contract/calendar';
import {
  MANDATE_EXPIRY_MONTHS,
  type Mandate,
  type MandateChanges,
  type MandateValues,
} from '@back-office/contract/mandates';
import type { Database, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { postgresErrorCode, UNIQUE_VIOLATION } from '../../lib/postgres-errors.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import {
  createStaleSubscriberError,
  createSubscriberNotFoundError,
} from '../subscribers/subscribers.errors.ts';
import type { SubscribersRepository } from '../subscribers/subscribers.repository.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import {
  createFutureSignatureError,
  createMandateNotActiveError,
  createMandateNotFoundError,
  createMandateReferenceTakenError,
  createMandateUsedError,
} from './mandates.errors.ts';
import { type MandateColumns, type MandatesRepository, toMandate } from './mandates.repository.ts';
import type { MandateRow } from './mandates.table.ts';

/** Mandates one transaction of the `mandates.expire` job expires at most. */
const EXPIRE_BATCH = 500;

/** Who the history names for what the server did on its own (the expiry). */
const SYSTEM_USER = 'System';

/**
 * The day `months` calendar months before `day` (`YYYY-MM-DD`), the day of the month kept or, past
 * the end of the shorter month, its last day (2027-05-31 minus 3 months is 2027-02-28): PostgreSQL's
 * `date - interval`.
 */
export function monthsBefore(day: string, months: number): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  const index = year * 12 + (month - 1) - months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth, 0)).getUTCDate();
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(targetYear, 4)}-${pad(targetMonth, 2)}-${pad(Math.min(date, lastDay), 2)}`;
}

/** Shows only the last 4 characters of an IBAN: the history is read by every staff member. */
function maskIban(iban: string): string {
  return iban ? `ending ${iban.slice(-4)}` : '(none)';
}

const TYPE_WORDS: Record<MandateRow['type'], string> = { recurring: 'recurring', oneOff: 'one-off' };

function rumTaken(rum: string) {
  const message = `The RUM ${rum} is already used by another mandate: a reference identifies one mandate only.`;
  return createMandateReferenceTakenError(message, [{ path: 'rum', message }]);
}

/**
 * SEPA direct-debit mandates (contract `mandates`, docs/decisions/027): the list of a subscriber's,
 * their creation, change, deletion and revocation, and their expiry after 36 months unused. Each write
 * runs in one transaction that also writes a line in the subscriber's history and puts the RUM and
 * IBAN of the subscriber's current mandate (the active one signed last; '' when none) on the record.
 * Locks are taken mandate first, then subscriber, everywhere.
 */
export function createMandatesService({
  db,
  repository,
  subscribersRepository,
  subscribersService,
  clock,
  timeZone,
}: {
  db: Database;
  repository: MandatesRepository;
  subscribersRepository: Pick<SubscribersRepository, 'findById' | 'lockById' | 'update'>;
  subscribersService: Pick<SubscribersService, 'addHistory'>;
  clock: Clock;
  timeZone: string;
}) {
  const today = () => calendarDay(clock.now(), timeZone);

  function refuseFutureSignature(signedOn: string | undefined) {
    if (signedOn !== undefined && signedOn > today()) {
      const message = 'The date of signature cannot be in the future.';
      throw createFutureSignatureError(`The date of signature ${signedOn} is in the future.`, [
        { path: 'signedOn', message },
      ]);
    }
  }

  /** Locks the subscriber, refusing a deleted or unknown one. */
  async function lockSubscriber(tx: Executor, subscriberId: number) {
    const row = await subscribersRepository.lockById(tx, subscriberId);
    if (!row || row.hidden) throw createSubscriberNotFoundError(`No subscriber has id ${subscriberId}.`);
    return row;
  }

  /** Locks mandate `id` and its subscriber (in that order). @throws 404 */
  async function lockMandate(tx: Executor, id: number) {
    const mandate = await repository.findById(tx, id, { lock: true });
    if (!mandate) throw createMandateNotFoundError(`No mandate has id ${id}.`);
    const subscriber = await subscribersRepository.lockById(tx, mandate.subscriberId);
    if (!subscriber || subscriber.hidden) throw createMandateNotFoundError(`No mandate has id ${id}.`);
    return { mandate, subscriber };
  }

  /**
   * Puts the RUM and IBAN of the subscriber's current mandate (or '' when none is active) on the
   * subscriber's record, which must be locked; its version goes up only when they change.
   */
  async function showCurrentMandate(
    tx: Executor,
    subscriber: { id: number; version: number; rum: string; iban: string },
  ) {
    const current = await repository.currentActive(tx, subscriber.id);
    const rum = current?.rum ?? '';
    const iban = current?.iban ?? '';
    if (subscriber.rum === rum && subscriber.iban === iban) return;
    const saved = await subscribersRepository.update(tx, subscriber.id, subscriber.version, { rum, iban });
    if (!saved) throw createStaleSubscriberError('Someone else changed this subscriber at the same time.');
  }

  /** Runs `work` in a transaction; a reference taken meanwhile by another transaction is a 409. */
  async function writing<T>(rum: string | undefined, work: (tx: Executor) => Promise<T>): Promise<T> {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (rum !== undefined && postgresErrorCode(error) === UNIQUE_VIOLATION) throw rumTaken(rum);
      throw error;
    }
  }

  return {
    /**
     * `GET /api/subscribers/{id}/mandates`: the subscriber's mandates, most recently signed first.
     * @throws 404 `subscribers.not_found` for an unknown or deleted subscriber.
     */
    list: async (subscriberId: number): Promise<Mandate[]> => {
      const found = await subscribersRepository.findById(db, subscriberId);
      if (!found || found.row.hidden)
        throw createSubscriberNotFoundError(`No subscriber has id ${subscriberId}.`);
      return (await repository.listBySubscriber(db, subscriberId)).map(toMandate);
    },

    /**
     * `POST /api/subscribers/{id}/mandates`: stores a new active mandate of the subscriber, writes
     * "Mandate X added …" in the history and shows the current mandate on the record.
     * @throws 400 `mandates.future_signature` naming `signedOn`; 404 `subscribers.not_found`;
     *   409 `mandates.rum_taken` naming `rum`.
     */
    create: async (subscriberId: number, input: MandateValues, user: AuthUser): Promise<Mandate> => {
      refuseFutureSignature(input.signedOn);
      return writing(input.rum, async (tx) => {
        const subscriber = await lockSubscriber(tx, subscriberId);
        if (await repository.isReferenceTaken(tx, input.rum)) throw rumTaken(input.rum);
        const row = await repository.insert(tx, { subscriberId, ...input });
        if (!row) throw rumTaken(input.rum);
        await subscribersService.addHistory(tx, {
          subscriberId,
          userName: user.fullName,
          description: `Mandate ${row.rum} added (${TYPE_WORDS[row.type]}, IBAN ${maskIban(row.iban)}, signed on ${row.signedOn}).`,
        });
        await showCurrentMandate(tx, subscriber);
        return toMandate(row);
      });
    },

    /**
     * `PATCH /api/mandates/{id}`: changes the fields given. A change of the RUM or the IBAN of a mandate
     * already used (`lastCollectedOn` set) is an amendment: the values of its last collection are kept
     * in `amendment` (from the first change until a collection clears them) with the day of the change,
     * so that the next collection announces it (`AmdmntInd`, `OrgnlMndtId`, `OrgnlDbtrAcct`); changing
     * back to those values forgets them. Writes one history line naming what changed.
     * @throws 400 `mandates.future_signature`; 404 `mandates.not_found`; 409 `mandates.not_active` for
     *   a revoked or expired mandate; 409 `mandates.rum_taken` naming `rum`.
     */
    update: async (id: number, changes: MandateChanges, user: AuthUser): Promise<Mandate> => {
      refuseFutureSignature(changes.signedOn);
      return writing(changes.rum, async (tx) => {
        const { mandate, subscriber } = await lockMandate(tx, id);
        if (mandate.status !== 'active') {
          throw createMandateNotActiveError(
            `The mandate ${mandate.rum} is ${mandate.status}: it can no longer be changed. Add a new mandate instead.`,
          );
        }
        const rum = changes.rum ?? mandate.rum;
        const iban = changes.iban ?? mandate.iban;
        const bic = changes.bic === undefined ? mandate.bic : changes.bic;
        const signedOn = changes.signedOn ?? mandate.signedOn;
        const type = changes.type ?? mandate.type;
        if (rum !== mandate.rum && (await repository.isReferenceTaken(tx, rum, id))) throw rumTaken(rum);

        const columns: MandateColumns = { rum, iban, bic, signedOn, type };
        const said: string[] = [];
        if (rum !== mandate.rum) said.push(`RUM from ${mandate.rum} to ${rum}`);
        if (iban !== mandate.iban) said.push(`IBAN from ${maskIban(mandate.iban)} to ${maskIban(iban)}`);
        if (bic !== mandate.bic) said.push(`BIC from ${mandate.bic ?? '(none)'} to ${bic ?? '(none)'}`);
        if (signedOn !== mandate.signedOn) said.push(`signed on from ${mandate.signedOn} to ${signedOn}`);
        if (type !== mandate.type) said.push(`type from ${TYPE_WORDS[mandate.type]} to ${TYPE_WORDS[type]}`);
        if (said.length === 0) return toMandate(mandate);

        if (mandate.lastCollectedOn !== null && (rum !== mandate.rum || iban !== mandate.iban)) {
          // The values the bank last saw: kept from the first change until a collection sends them.
          const originalRum =
            rum === mandate.rum ? mandate.originalRum : (mandate.originalRum ?? mandate.rum);
          const originalIban =
            iban === mandate.iban ? mandate.originalIban : (mandate.originalIban ?? mandate.iban);
          columns.originalRum = originalRum === rum ? null : originalRum;
          columns.originalIban = originalIban === iban ? null : originalIban;
          const amended = columns.originalRum !== null || columns.originalIban !== null;
          columns.amendedOn = amended ? today() : null;
          if (amended) said.push('to be announced as an amendment at the next collection');
        }
        const row = await repository.update(tx, id, columns);
        if (!row) throw createMandateNotFoundError(`No mandate has id ${id}.`);
        await subscribersService.addHistory(tx, {
          subscriberId: row.subscriberId,
          userName: user.fullName,
          description: `Mandate ${mandate.rum} changed: ${said.join('; ')}.`,
        });
        await showCurrentMandate(tx, subscriber);
        return toMandate(row);
      });
    },

    /**
     * `DELETE /api/mandates/{id}`: deletes a mandate never used (one typed in by mistake), writing
     * "Mandate X deleted." in the history.
     * @throws 404 `mandates.not_found`; 409 `mandates.used` when it has been used for a collection:
     *   it is the proof of the debtor's authorisation, to be revoked instead.
     */
    remove: async (id: number, user: AuthUser): Promise<void> =>
      writing(undefined, async (tx) => {
        const { mandate, subscriber } = await lockMandate(tx, id);
        if (mandate.lastCollectedOn !== null) {
          throw createMandateUsedError(
            `The mandate ${mandate.rum} was used for a collection on ${mandate.lastCollectedOn}: it is kept as proof. Revoke it instead.`,
          );
        }
        await repository.remove(tx, id);
        await subscribersService.addHistory(tx, {
          subscriberId: mandate.subscriberId,
          userName: user.fullName,
          description: `Mandate ${mandate.rum} deleted.`,
        });
        await showCurrentMandate(tx, subscriber);
      }),

    /**
     * `POST /api/mandates/{id}/revoke`: ends an active or suspended mandate today (`revokedOn`,
     * `revokedReason`), writing "Mandate X revoked: reason." in the history.
     * @throws 404 `mandates.not_found`; 409 `mandates.not_active` when already revoked or expired.
     */
    revoke: async (id: number, reason: string, user: AuthUser): Promise<Mandate> =>
      writing(undefined, async (tx) => {
        const { mandate, subscriber } = await lockMandate(tx, id);
        if (mandate.status !== 'active' && mandate.status !== 'suspended') {
          throw createMandateNotActiveError(`The mandate ${mandate.rum} is already ${mandate.status}.`);
        }
        const row = await repository.update(tx, id, {
          status: 'revoked',
          revokedOn: today(),
          revokedReason: reason,
        });
        if (!row) throw createMandateNotFoundError(`No mandate has id ${id}.`);
        await subscribersService.addHistory(tx, {
          subscriberId: mandate.subscriberId,
          userName: user.fullName,
          description: `Mandate ${mandate.rum} revoked: ${reason}`,
        });
        await showCurrentMandate(tx, subscriber);
        return toMandate(row);
      }),

    /**
     * Suspends active mandate `id` inside `tx` (the bank returned its collections, docs/decisions/030):
     * status `suspended` from today with `reason`, "Mandate X suspended: reason" in the history, and
     * the subscriber's record no longer shows it as current. Locks the mandate, then its subscriber.
     * @returns true when it was active and is now suspended; false otherwise (nothing changes).
     */
    suspendOn: async (tx: Executor, id: number, reason: string, user: AuthUser): Promise<boolean> => {
      const mandate = await repository.findById(tx, id, { lock: true });
      if (mandate?.status !== 'active') return false;
      const subscriber = await subscribersRepository.lockById(tx, mandate.subscriberId);
      await repository.update(tx, id, { status: 'suspended', suspendedOn: today(), suspendedReason: reason });
      await subscribersService.addHistory(tx, {
        subscriberId: mandate.subscriberId,
        userName: user.fullName,
        description: `Mandate ${mandate.rum} suspended: ${reason}`,
      });
      if (subscriber) await showCurrentMandate(tx, subscriber);
      return true;
    },

    /** Whether an active mandate is past its 36 months unused (the `mandates.expire` job's `hasWork`). */
    hasExpired: (): Promise<boolean> =>
      repository.hasUnusedSince(db, monthsBefore(today(), MANDATE_EXPIRY_MONTHS)),

    /**
     * The `mandates.expire` job: the active mandates whose last collection (or, never used, signature)
     * is {@link MANDATE_EXPIRY_MONTHS} months old or more become `expired` (EPC rulebook), each with a
     * history line "Mandate X expired: unused since YYYY-MM-DD." by `System`, and the records show
     * their subscribers' current mandate; in batches of {@link EXPIRE_BATCH}, one transaction each.
     * Resolves with how many expired.
     */
    expire: async (): Promise<number> => {
      const cutoff = monthsBefore(today(), MANDATE_EXPIRY_MONTHS);
      let total = 0;
      for (;;) {
        const count = await db.transaction(async (tx) => {
          const expired = await repository.expireUnusedSince(tx, cutoff, EXPIRE_BATCH);
          const subscriberIds = [...new Set(expired.map((mandate) => mandate.subscriberId))].sort(
            (a, b) => a - b,
          );
          for (const subscriberId of subscriberIds) {
            const subscriber = await subscribersRepository.lockById(tx, subscriberId);
            if (!subscriber) continue;
            for (const mandate of expired.filter((item) => item.subscriberId === subscriberId)) {
              await subscribersService.addHistory(tx, {
                subscriberId,
                userName: SYSTEM_USER,
                description: `Mandate ${mandate.rum} expired: unused since ${mandate.lastUsedOn} (${MANDATE_EXPIRY_MONTHS} months).`,
              });
            }
            if (!subscriber.hidden) await showCurrentMandate(tx, subscriber);
          }
          return expired.length;
        });
        total += count;
        if (count < EXPIRE_BATCH) return total;
      }
    },
  };
}

export type MandatesService = ReturnType<typeof createMandatesService>;
