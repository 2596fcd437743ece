import {
  type DuplicateCheck,
  type DuplicateMatch,
  type DuplicatePairs,
  type DuplicatePairsQuery,
  duplicateCheckSchema,
  MERGE_SAME_SUBSCRIBER_MESSAGE,
  MERGE_UNDO_DAYS,
  MERGEABLE_FIELDS,
  type MergeSubscribers,
  mergeSubscribersSchema,
  type SubscriberMerge,
} from '@back-office/contract/duplicates';
import type { SaveSubscriber, Subscriber } from '@back-office/contract/subscribers';
import { sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { createErrorFactory } from '../../lib/errors.ts';
import { foldForSearch } from '../../lib/search-text.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { JobsRepository } from '../jobs/jobs.repository.ts';
import type { SubscribersRepository } from '../subscribers/subscribers.repository.ts';
import { subscriberName, toSubscriberColumns, toSubscriberDto } from '../subscribers/subscribers.service.ts';
import type { DuplicatesRepository } from './duplicates.repository.ts';
import type { subscriberMerges } from './duplicates.table.ts';

const DAY_MS = 86_400_000;
/** A scan of a million subscribers runs for minutes: more than the app's 2-minute statement limit. */
const SCAN_STATEMENT_TIMEOUT = '15min';

/** One of the two subscribers of a merge is unknown or deleted. */
export const createMergeNotFoundError = createErrorFactory({
  code: 'duplicates.not_found',
  status: 404,
  title: 'Not Found',
});
/** A subscriber merged into itself. */
export const createMergeSameSubscriberError = createErrorFactory({
  code: 'duplicates.same_subscriber',
  status: 400,
  title: 'Bad Request',
});
/** The merge cannot be done or undone as asked (see `detail`). */
export const createMergeConflictError = createErrorFactory({
  code: 'duplicates.conflict',
  status: 409,
  title: 'Conflict',
});

/** A record as a save payload (its fields as they are, also when older data would fail today's checks). */
const asSavePayload = (dto: Subscriber): SaveSubscriber => ({ ...dto });

function toMerge(row: typeof subscriberMerges.$inferSelect): SubscriberMerge {
  const moved = row.moved;
  return {
    id: row.id,
    keepId: row.keepId,
    mergeId: row.mergeId,
    moved: {
      donations: moved.donations.length,
      sales: moved.sales.length,
      receipts: moved.receipts.length,
      history: moved.history.length,
      tags: moved.tags.length,
    },
    mergedAt: row.mergedAt.toISOString(),
    mergedBy: row.mergedBy,
    undoUntil: new Date(row.mergedAt.getTime() + MERGE_UNDO_DAYS * DAY_MS).toISOString(),
    undoneAt: row.undoneAt?.toISOString() ?? null,
  };
}

/**
 * Duplicates and merge (contract `duplicates`): the likely duplicates of a record being written, the
 * `duplicates.scan` job over the whole register and its pairs, and the merge of two subscribers, undone
 * within {@link MERGE_UNDO_DAYS} days.
 */
export function createDuplicatesService({
  db,
  repository,
  subscribersRepository,
  jobs,
  clock,
  nudge,
}: {
  db: Database;
  repository: DuplicatesRepository;
  subscribersRepository: SubscribersRepository;
  jobs: Pick<JobsRepository, 'enqueue'>;
  clock: Clock;
  nudge: () => void;
}) {
  /** Both subscribers locked (lower id first: two merges of the same pair cannot deadlock) and read. */
  async function lockPair(tx: Transaction, keepId: number, mergeId: number) {
    for (const id of [keepId, mergeId].sort((a, b) => a - b)) await subscribersRepository.lockById(tx, id);
    const [keep, merge] = await Promise.all([
      subscribersRepository.findById(tx, keepId),
      subscribersRepository.findById(tx, mergeId),
    ]);
    return { keep, merge };
  }

  return {
    /**
     * `POST /api/subscribers/duplicates/check`: existing subscribers who look like the one being written
     * (same email or IBAN, or a similar name at the same postcode or in the same town), best first.
     */
    check: async (body: DuplicateCheck): Promise<DuplicateMatch[]> => {
      const input = duplicateCheckSchema.parse(body);
      const rows = await repository.findLikely(db, {
        excludeId: input.excludeId,
        email: input.email.trim().toLowerCase(),
        iban: input.iban.replace(/\s+/g, '').toUpperCase(),
        name: `${foldForSearch(input.lastName)} ${foldForSearch(input.firstName)}`,
        postcode: foldForSearch(input.postcode),
        town: foldForSearch(input.town),
      });
      return rows.map((row) => ({
        id: row.id,
        name: subscriberName(row),
        postcode: row.postcode,
        town: row.town,
        email: row.email,
        reasons: row.reasons,
      }));
    },

    /** `POST /api/subscribers/duplicates/scan`: queues a scan of the register (one at a time). */
    startScan: async (user: AuthUser) => {
      await jobs.enqueue(db, {
        kind: 'duplicates.scan',
        title: 'Search for duplicates',
        singletonKey: 'duplicates.scan',
        startedBy: user.fullName,
        maxAttempts: 2,
        leaseSeconds: 300,
      });
      nudge();
    },

    /** The `duplicates.scan` job: the pairs of the whole register, replaced in one transaction. */
    runScan: async () => {
      await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local statement_timeout = '${SCAN_STATEMENT_TIMEOUT}'`));
        const pairs = await repository.scan(tx);
        await repository.recordScan(tx, { finishedAt: clock.now(), pairs });
      });
      return undefined;
    },

    /** `GET /api/subscribers/duplicates`: a page of the last scan's pairs, best first. */
    pairs: async (query: DuplicatePairsQuery, scanning: boolean): Promise<DuplicatePairs> => {
      const [page, last] = await Promise.all([
        repository.pairsPage(db, { offset: query.listfrom - 1, limit: query.listlength }),
        repository.lastScan(db),
      ]);
      return {
        count: page.count,
        models: page.rows.map((row) => ({
          aId: row.aId,
          bId: row.bId,
          aName: subscriberName({ title: row.aTitle, firstName: row.aFirst, lastName: row.aLast }),
          bName: subscriberName({ title: row.bTitle, firstName: row.bFirst, lastName: row.bLast }),
          score: Math.round(row.score * 100) / 100,
          reasons: row.reasons,
        })),
        scannedAt: last?.finishedAt.toISOString() ?? null,
        scanning,
      };
    },

    /**
     * `POST /api/subscribers/merge`: in one transaction, the kept record takes the fields chosen from the
     * merged one and both sets of tags; the merged one's donations, sales, receipts and history move to
     * it, and its opt-out from bulk emails applies to it; the merged one is hidden with a pointer to it;
     * both histories say so.
     * @throws 404 `duplicates.not_found` for an unknown or deleted subscriber.
     */
    merge: async (body: MergeSubscribers, user: AuthUser): Promise<SubscriberMerge> => {
      const { keepId, mergeId, fields } = mergeSubscribersSchema.parse(body);
      if (keepId === mergeId) {
        throw createMergeSameSubscriberError(MERGE_SAME_SUBSCRIBER_MESSAGE, [
          { path: 'mergeId', message: MERGE_SAME_SUBSCRIBER_MESSAGE },
        ]);
      }
      return db.transaction(async (tx) => {
        const { keep, merge } = await lockPair(tx, keepId, mergeId);
        for (const [id, found] of [
          [keepId, keep],
          [mergeId, merge],
        ] as const) {
          if (!found || found.row.hidden) throw createMergeNotFoundError(`No subscriber has id ${id}.`);
        }
        if (!keep || !merge) throw createMergeNotFoundError('No such subscribers.');
        const keepDto = toSubscriberDto(keep.row, keep.tags);
        const mergeDto = toSubscriberDto(merge.row, merge.tags);
        const after: SaveSubscriber = {
          ...asSavePayload(keepDto),
          tags: [...new Set([...keep.tags, ...merge.tags])],
        };
        for (const field of MERGEABLE_FIELDS) {
          if (fields[field] === 'merge') Object.assign(after, { [field]: mergeDto[field] });
        }
        // The person asked for no bulk email through the merged record: the kept one honours it.
        const optOut =
          (await repository.isOptedOut(tx, mergeId)) && !(await repository.isOptedOut(tx, keepId));
        if (optOut) after.onMailChimpList = false;
        const updated = await subscribersRepository.update(
          tx,
          keepId,
          keep.row.version,
          toSubscriberColumns(after),
        );
        if (!updated) throw createMergeConflictError(`The subscriber ${keepId} changed while it was merged.`);
        const moved = await repository.moveRecords(tx, mergeId, keepId);
        const keepTagIds = new Set(await tagIdsOf(tx, keepId));
        const mergeTagIds = await tagIdsOf(tx, mergeId);
        const addedTags = mergeTagIds.filter((id) => !keepTagIds.has(id));
        await subscribersRepository.replaceTags(tx, keepId, [...keepTagIds, ...addedTags]);
        await repository.setMergedInto(tx, mergeId, keepId);
        if (optOut) await repository.copyOptOut(tx, mergeId, keepId);
        await subscribersRepository.addHistory(tx, {
          subscriberId: keepId,
          userName: user.fullName,
          description: `Merged with ${subscriberName(mergeDto)} (${mergeId}): ${moved.donations.length} donations, ${moved.sales.length} sales and ${moved.receipts.length} receipts moved here.${optOut ? ' The merged record had unsubscribed from bulk emails: so has this one.' : ''}`,
        });
        await subscribersRepository.addHistory(tx, {
          subscriberId: mergeId,
          userName: user.fullName,
          description: `Merged into ${subscriberName(keepDto)} (${keepId}).`,
        });
        const row = await repository.insertMerge(tx, {
          keepId,
          mergeId,
          keepBefore: asSavePayload(keepDto),
          mergeBefore: asSavePayload(mergeDto),
          moved: { ...moved, tags: addedTags, ...(optOut ? { optOut } : {}) },
          keepVersion: updated.version,
          mergedAt: clock.now(),
          mergedBy: user.fullName,
        });
        return toMerge(row);
      });
    },

    /**
     * `POST /api/subscribers/merge/{mergeId}/undo`: within {@link MERGE_UNDO_DAYS} days, puts both records
     * back as they were and moves back what moved (what was added to the kept one since stays there).
     * @throws 404 when `mergeId` was not merged; 409 after the delay, or when the kept record changed since.
     */
    undo: async (mergeId: number, user: AuthUser): Promise<SubscriberMerge> =>
      db.transaction(async (tx) => {
        const merge = await repository.activeMergeOf(tx, mergeId);
        if (!merge) throw createMergeNotFoundError(`The subscriber ${mergeId} was not merged into another.`);
        if (clock.now().getTime() - merge.mergedAt.getTime() > MERGE_UNDO_DAYS * DAY_MS) {
          throw createMergeConflictError(
            `The merge is more than ${MERGE_UNDO_DAYS} days old: it can no longer be undone.`,
          );
        }
        const { keep } = await lockPair(tx, merge.keepId, mergeId);
        if (!keep || keep.row.version !== merge.keepVersion) {
          throw createMergeConflictError(
            `${keep ? subscriberName(keep.row) : 'The kept subscriber'} (${merge.keepId}) was changed since the merge: undoing it would lose that change.`,
          );
        }
        const keepBefore = merge.keepBefore as SaveSubscriber;
        await subscribersRepository.update(
          tx,
          merge.keepId,
          keep.row.version,
          toSubscriberColumns(keepBefore),
        );
        const remaining = (await tagIdsOf(tx, merge.keepId)).filter((id) => !merge.moved.tags.includes(id));
        await subscribersRepository.replaceTags(tx, merge.keepId, remaining);
        await repository.moveBack(tx, merge.moved, merge.keepId, mergeId);
        if (merge.moved.optOut) await repository.copyOptOut(tx, null, merge.keepId);
        await repository.setMergedInto(tx, mergeId, null);
        for (const subscriberId of [merge.keepId, mergeId]) {
          await subscribersRepository.addHistory(tx, {
            subscriberId,
            userName: user.fullName,
            description: `Merge of ${mergeId} into ${merge.keepId} undone.`,
          });
        }
        const [undone] = await repository.markUndone(tx, merge.id, clock.now());
        if (!undone) throw createMergeNotFoundError(`The subscriber ${mergeId} was not merged into another.`);
        return toMerge(undone);
      }),
  };

  function tagIdsOf(tx: Transaction, subscriberId: number) {
    return subscribersRepository.tagIdsOf(tx, subscriberId);
  }
}

export type DuplicatesService = ReturnType<typeof createDuplicatesService>;
