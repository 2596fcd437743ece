import { calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import { ANONYMISED_FIRST_NAME, anonymisedLastName } from '@back-office/contract/personal-data';
import type {
  HistoryEntry,
  SaveSubscriber,
  Subscriber,
  SubscriberSearchQuery,
  SubscriberSearchResult,
} from '@back-office/contract/subscribers';
import type { Database, Executor } from '../../db/client.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { foldForSearch } from '../../lib/search-text.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import {
  createMailRepository,
  type MailRepository,
  SUBSCRIBER_ANONYMISED_REASON,
  SUBSCRIBER_DELETED_REASON,
} from '../mail/mail.repository.ts';
import { describeSubscriberChanges } from './subscriber-history-text.ts';
import {
  loadReferenceNames,
  type ReferenceIds,
  unknownReferenceErrors,
} from './subscriber-references.repository.ts';
import {
  createFutureConsentDateError,
  createStaleSubscriberError,
  createSubscriberAnonymisedError,
  createSubscriberIdMismatchError,
  createSubscriberNotFoundError,
  createUnknownReferenceError,
} from './subscribers.errors.ts';
import type { SubscriberColumns, SubscriberRow, SubscribersRepository } from './subscribers.repository.ts';

/** History lines written by one insert statement (3 parameters each; a statement takes 65,535). */
const HISTORY_BATCH = 5000;

/** The wire record of a stored subscriber: null references become 0, `numeric` becomes a number. */
export function toSubscriberDto(row: SubscriberRow, tags: string[]): Subscriber {
  return {
    id: row.id,
    version: row.version,
    title: row.title,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    mobile: row.mobile,
    fax: row.fax,
    address1: row.address1,
    address2: row.address2,
    address3: row.address3,
    town: row.town,
    postcode: row.postcode,
    billingAddress: row.billingAddress,
    notes: row.notes,
    association: row.association,
    inactive: row.inactive,
    inactiveReason: row.inactiveReason,
    rum: row.rum,
    countryId: row.countryId ?? 0,
    paymentMethodId: row.paymentMethodId ?? 0,
    categoryId: row.categoryId ?? 0,
    subscriptionTypeId: row.subscriptionTypeId ?? 0,
    currencyId: row.currencyId,
    recommendedBy: row.recommendedBy,
    copies: row.copies,
    bank: row.bank,
    iban: row.iban,
    amount: Number(row.amount),
    startDate: row.startDate,
    endDate: row.endDate,
    tags,
    onMailChimpList: row.onMailChimpList,
    newsletterEmail: row.newsletterEmail,
    emailConsentDate: row.emailConsentDate,
    emailConsentSource: row.emailConsentSource,
    addedBy: row.addedBy,
    addedOn: row.addedOn.toISOString(),
    hidden: row.hidden,
  };
}

/** The display name of a subscriber: title, first and last name. */
export function subscriberName(subscriber: { title: string; firstName: string; lastName: string }) {
  return [subscriber.title, subscriber.firstName, subscriber.lastName].filter(Boolean).join(' ');
}

const nullIfZero = (id: number) => (id > 0 ? id : null);

/** The table's columns for a save payload: ids of 0 as null, the IBAN compacted, the folded search copies. */
export function toSubscriberColumns(input: SaveSubscriber): Omit<SubscriberColumns, 'addedBy'> {
  return {
    title: input.title,
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    phone: input.phone,
    mobile: input.mobile,
    fax: input.fax,
    address1: input.address1,
    address2: input.address2,
    address3: input.address3,
    town: input.town,
    postcode: input.postcode,
    billingAddress: input.billingAddress,
    notes: input.notes,
    association: input.association,
    inactive: input.inactive,
    inactiveReason: input.inactiveReason,
    rum: input.rum,
    countryId: nullIfZero(input.countryId),
    paymentMethodId: nullIfZero(input.paymentMethodId),
    categoryId: nullIfZero(input.categoryId),
    subscriptionTypeId: nullIfZero(input.subscriptionTypeId),
    currencyId: input.currencyId,
    recommendedBy: input.recommendedBy,
    copies: input.copies,
    bank: input.bank,
    iban: input.iban.replace(/\s+/g, '').toUpperCase(),
    amount: input.amount.toFixed(2),
    startDate: input.startDate,
    endDate: input.endDate,
    onMailChimpList: input.onMailChimpList,
    newsletterEmail: input.newsletterEmail,
    emailConsentDate: input.emailConsentDate,
    emailConsentSource: input.emailConsentSource,
    searchFirstName: foldForSearch(input.firstName),
    searchLastName: foldForSearch(input.lastName),
    searchTown: foldForSearch(input.town),
    searchPostcode: foldForSearch(input.postcode),
    searchAssociation: foldForSearch(input.association),
  };
}

/** The subscriber register (part 2 §2.1-2.3, §7 Subscribers). */
export function createSubscribersService({
  db,
  repository,
  mailRepository = createMailRepository(),
  clock = systemClock,
  timeZone = DEFAULT_TIME_ZONE,
}: {
  db: Database;
  repository: SubscribersRepository;
  /** The outbox, whose pending messages to a subscriber are cancelled when they are deleted. */
  mailRepository?: MailRepository;
  clock?: Clock;
  /** IANA zone of the organisation's days: no consent is dated after today there (docs/decisions/012). */
  timeZone?: string;
}) {
  const notFound = (id: number) => createSubscriberNotFoundError(`No subscriber has id ${id}.`);

  /** @throws 400 `subscribers.future_consent_date` naming `emailConsentDate` when it is after today. */
  function refuseFutureConsent(input: SaveSubscriber) {
    const today = calendarDay(clock.now(), timeZone);
    if (input.emailConsentDate !== null && input.emailConsentDate > today) {
      throw createFutureConsentDateError(
        `The email consent date ${input.emailConsentDate} is in the future.`,
        [{ path: 'emailConsentDate', message: 'The email consent date cannot be in the future.' }],
      );
    }
  }

  /** Checks every reference id and tag name; returns the tag ids and the names used by history. */
  async function resolveReferences(tx: Executor, input: SaveSubscriber, before?: ReferenceIds) {
    const ids: ReferenceIds = {
      countryId: input.countryId,
      paymentMethodId: input.paymentMethodId,
      categoryId: input.categoryId,
      subscriptionTypeId: input.subscriptionTypeId,
      currencyId: input.currencyId,
    };
    const names = await loadReferenceNames(tx, before ? [ids, before] : [ids]);
    const errors = unknownReferenceErrors(ids, names);
    const uniqueTags = [...new Map(input.tags.map((tag) => [tag.toLowerCase(), tag])).values()];
    const foundTags = await repository.findTagsByName(tx, uniqueTags);
    input.tags.forEach((tag, index) => {
      if (!foundTags.has(tag.toLowerCase())) {
        errors.push({ path: `tags.${index}`, message: `The tag '${tag}' does not exist.` });
      }
    });
    if (errors.length > 0) {
      throw createUnknownReferenceError(errors.map((error) => error.message).join(' '), errors);
    }
    const tagIds = uniqueTags.map((tag) => foundTags.get(tag.toLowerCase())?.id ?? 0);
    return { names, tagIds };
  }

  async function loadVisible(tx: Executor, id: number) {
    const found = await repository.findById(tx, id);
    if (!found || found.row.hidden) throw notFound(id);
    return toSubscriberDto(found.row, found.tags);
  }

  return {
    /** `GET /api/subscribers/new`: a blank record added by the signed-in user (part 2 §3 defaults). */
    blank: (user: AuthUser): Subscriber => ({
      id: 0,
      version: 0,
      title: '',
      firstName: '',
      lastName: '',
      email: '',
      phone: '',
      mobile: '',
      fax: '',
      address1: '',
      address2: '',
      address3: '',
      town: '',
      postcode: '',
      billingAddress: '',
      notes: '',
      association: '',
      inactive: false,
      inactiveReason: '',
      rum: '',
      countryId: 0,
      paymentMethodId: 0,
      categoryId: 0,
      subscriptionTypeId: 0,
      currencyId: 0,
      recommendedBy: '',
      copies: 0,
      bank: '',
      iban: '',
      amount: 0,
      startDate: null,
      endDate: null,
      tags: [],
      onMailChimpList: false,
      newsletterEmail: '',
      emailConsentDate: null,
      emailConsentSource: '',
      addedBy: user.fullName,
      addedOn: null,
      hidden: false,
    }),

    /** `GET /api/subscribers/{id}`. @throws 404 for an unknown or deleted subscriber. */
    get: (id: number) => loadVisible(db, id),

    /**
     * `GET /api/subscribers/{id}`: the record, or for a subscriber merged into another the id it leads
     * to (following merges of merges). @throws 404 for an unknown or deleted subscriber.
     */
    open: async (id: number): Promise<{ subscriber: Subscriber } | { mergedInto: number }> => {
      let current = id;
      for (let step = 0; step < 10; step += 1) {
        const found = await repository.findById(db, current);
        if (!found || (found.row.hidden && !found.row.mergedIntoId)) throw notFound(id);
        if (!found.row.hidden) {
          return current === id
            ? { subscriber: toSubscriberDto(found.row, found.tags) }
            : { mergedInto: current };
        }
        current = found.row.mergedIntoId ?? current;
      }
      throw notFound(id);
    },

    /** `GET /api/subscribers/`: `{count, countIsExact, models}` sorted by last then first name. */
    search: async (query: SubscriberSearchQuery): Promise<SubscriberSearchResult> => {
      const { count, countIsExact, rows } = await repository.search(db, query);
      return {
        count,
        countIsExact,
        models: rows.map((row) => ({
          id: row.id,
          name: subscriberName(row),
          category: row.category ?? '',
          street: row.street,
          postCode: row.postCode,
        })),
      };
    },

    /**
     * `POST /api/subscribers`: creates the record, its tags and a history line in one transaction.
     * @throws 400 `subscribers.unknown_reference` naming the field, or `subscribers.future_consent_date`
     * naming `emailConsentDate`.
     */
    create: (input: SaveSubscriber, user: AuthUser) => {
      refuseFutureConsent(input);
      return db.transaction(async (tx) => {
        const { tagIds } = await resolveReferences(tx, input);
        const row = await repository.insert(tx, { ...toSubscriberColumns(input), addedBy: user.fullName });
        await repository.replaceTags(tx, row.id, tagIds);
        await repository.addHistory(tx, {
          subscriberId: row.id,
          userName: user.fullName,
          description: `Subscriber ${subscriberName(row)} created.`,
        });
        return loadVisible(tx, row.id);
      });
    },

    /**
     * `PATCH /api/subscribers/{id}`: saves the changes and one history line saying what changed.
     * With `version`, a record saved by someone else since answers 409 `subscribers.stale`.
     * @throws 400 id mismatch, unknown reference or future email consent date; 404; 409 stale.
     */
    update: (id: number, input: SaveSubscriber, user: AuthUser) => {
      refuseFutureConsent(input);
      if (input.id !== 0 && input.id !== id) {
        throw createSubscriberIdMismatchError(`The body's id ${input.id} differs from the path's id ${id}.`, [
          { path: 'id', message: 'The id must match the one in the path.' },
        ]);
      }
      return db.transaction(async (tx) => {
        const locked = await repository.lockById(tx, id);
        if (!locked || locked.hidden) throw notFound(id);
        if (input.version !== undefined && input.version !== locked.version) {
          throw createStaleSubscriberError(
            'Someone else changed this subscriber after you opened it. Reload it to see their changes, then make yours again.',
          );
        }
        const before = await loadVisible(tx, id);
        const { names, tagIds } = await resolveReferences(tx, input, before);
        const row = await repository.update(tx, id, locked.version, toSubscriberColumns(input));
        if (!row) throw createStaleSubscriberError('Someone else changed this subscriber at the same time.');
        // Most saves keep the tags: they are rewritten only when they changed.
        if (!sameTagNames(before.tags, input.tags)) await repository.replaceTags(tx, id, tagIds);
        const after = await loadVisible(tx, id);
        const description = describeSubscriberChanges(before, after, names);
        if (description)
          await repository.addHistory(tx, { subscriberId: id, userName: user.fullName, description });
        return after;
      });
    },

    /**
     * `DELETE /api/subscribers/{id}`: hides the record, keeping its donations, sales and history, and in
     * the same transaction cancels the emails queued for them and not yet sent (receipts, bulk and
     * brochure emails; one being sent at this moment may still go), writing "Subscriber deleted." and,
     * when there were any, "N queued emails cancelled." in the history. @throws 404
     */
    remove: (id: number, user: AuthUser) =>
      db.transaction(async (tx) => {
        const locked = await repository.lockById(tx, id);
        if (!locked || locked.hidden) throw notFound(id);
        await repository.update(tx, id, locked.version, { hidden: true });
        await repository.addHistory(tx, {
          subscriberId: id,
          userName: user.fullName,
          description: 'Subscriber deleted.',
        });
        const cancelled = await mailRepository.cancelPendingForSubscriber(tx, {
          subscriberId: id,
          reason: SUBSCRIBER_DELETED_REASON,
        });
        if (cancelled > 0) {
          await repository.addHistory(tx, {
            subscriberId: id,
            userName: user.fullName,
            description: `${cancelled} queued ${cancelled === 1 ? 'email' : 'emails'} cancelled.`,
          });
        }
      }),

    /** `GET /api/subscribers/{id}/history`, newest first. @throws 404 for an unknown id. */
    history: async (id: number): Promise<HistoryEntry[]> => {
      const found = await repository.findById(db, id);
      if (!found) throw notFound(id);
      const entries = await repository.listHistory(db, id);
      return entries.map((entry) => ({
        description: entry.description,
        user: entry.user,
        date: entry.at.toISOString(),
      }));
    },

    /**
     * Locks a subscriber, deleted or not, before anonymising them on the caller's transaction
     * (docs/decisions/019). @throws 404 for an unknown id; 409 `subscribers.anonymised` when done already.
     */
    lockForAnonymisation: async (tx: Executor, id: number) => {
      const locked = await repository.lockById(tx, id);
      if (!locked) throw notFound(id);
      if (locked.anonymisedAt) {
        throw createSubscriberAnonymisedError(
          `Subscriber ${id} was anonymised already; it cannot be undone.`,
        );
      }
      return locked;
    },

    /**
     * Erases the identity of `locked` (from {@link lockForAnonymisation}) on the caller's transaction,
     * irreversibly (GDPR art. 17): first name "Anonymised", last name "Subscriber {id}"; title, contact
     * details, addresses, notes, association, bank details, RUM, newsletter email, email consent date
     * and source, recommended by and inactive reason emptied (their search copies with them); off the mailing list, no tags, hidden.
     * Queued emails to them are cancelled and the copies of those already over erased. Every history
     * line keeps its date and user and now says only "Personal data anonymised: {reason}.", and one
     * such line records this. Reference fields, amounts and dates stay (docs/decisions/019).
     */
    anonymiseOn: async (
      tx: Executor,
      locked: SubscriberRow,
      { reason, user, at }: { reason: string; user: AuthUser; at: Date },
    ) => {
      const id = locked.id;
      const erased: SaveSubscriber = {
        ...toSubscriberDto(locked, []),
        title: '',
        firstName: ANONYMISED_FIRST_NAME,
        lastName: anonymisedLastName(id),
        email: '',
        phone: '',
        mobile: '',
        fax: '',
        address1: '',
        address2: '',
        address3: '',
        town: '',
        postcode: '',
        billingAddress: '',
        notes: '',
        association: '',
        inactiveReason: '',
        rum: '',
        recommendedBy: '',
        bank: '',
        iban: '',
        onMailChimpList: false,
        newsletterEmail: '',
        // A consent names how the person was reached ("Formulaire web"): it goes with their identity.
        emailConsentDate: null,
        emailConsentSource: '',
        tags: [],
      };
      const row = await repository.update(tx, id, locked.version, {
        ...toSubscriberColumns(erased),
        hidden: true,
        anonymisedAt: at,
      });
      if (!row) throw new Error(`subscriber ${id} changed while locked`);
      await repository.replaceTags(tx, id, []);
      await mailRepository.cancelPendingForSubscriber(tx, {
        subscriberId: id,
        reason: SUBSCRIBER_ANONYMISED_REASON,
      });
      await mailRepository.eraseForSubscriber(tx, id);
      const description = `Personal data anonymised: ${reason.replace(/\.$/, '')}.`;
      await repository.replaceHistoryDescriptions(tx, id, description);
      await repository.addHistory(tx, { subscriberId: id, userName: user.fullName, description });
      return row;
    },

    /** A subscriber that is not deleted, with its currency id and symbol, or undefined. */
    findVisibleWithCurrency: (tx: Executor, id: number) => repository.findVisibleWithCurrency(tx, id),

    /** Writes one history line on the caller's transaction (for emails, letters, donations, sales). */
    addHistory: (tx: Executor, entry: { subscriberId: number; userName: string; description: string }) =>
      repository.addHistory(tx, entry),

    /** Writes many history lines on the caller's transaction, a few statements in all (bank statements). */
    addHistoryLines: async (
      tx: Executor,
      entries: ReadonlyArray<{ subscriberId: number; userName: string; description: string }>,
    ) => {
      for (let start = 0; start < entries.length; start += HISTORY_BATCH) {
        await repository.addHistory(tx, entries.slice(start, start + HISTORY_BATCH));
      }
    },
  };
}

export type SubscribersService = ReturnType<typeof createSubscribersService>;

/** Whether two lists of tag names name the same tags (case-insensitive, in any order, repeats ignored). */
function sameTagNames(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a.map((name) => name.toLowerCase()));
  const right = new Set(b.map((name) => name.toLowerCase()));
  return left.size === right.size && [...left].every((name) => right.has(name));
}
