import { calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import type {
  CreateDonation,
  DonationListItem,
  DonationSearchQuery,
  DonationSearchResult,
} from '@back-office/contract/donations';
import type { Database, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatAmount } from '../../lib/money.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import { subscriberName } from '../subscribers/subscribers.service.ts';
import {
  createDonationFromSaleError,
  createDonationNotFoundError,
  createDonationReceiptedError,
  createDonationSubscriberUnknownError,
  createFutureDonationDateError,
} from './donations.errors.ts';
import type { DonationListRow, DonationsRepository } from './donations.repository.ts';

/** The wire list item (part 2 §3 Donation list item). */
export function toDonationListItem(row: DonationListRow): DonationListItem {
  return {
    id: row.id,
    hasEmail: row.email.trim() !== '',
    subscriberId: row.subscriberId,
    subscriberName: subscriberName(row),
    amount: Number(row.amount),
    currencyName: row.currencyName,
    currencySymbol: row.currencySymbol,
    dateAdded: row.donationDate,
    notes: row.notes,
    postCode: row.postCode,
    receiptNumber: row.receiptNumber ?? null,
    ...(row.saleId === null ? {} : { saleId: row.saleId }),
    ...(row.saleRef === null ? {} : { saleRef: row.saleRef }),
  };
}

/**
 * A gift to record: `amount` is `numeric` text in the units of currency `currencyId`, whose symbol is
 * `currencySymbol` ("25.00", "€"); `donationDate` is `YYYY-MM-DD`; `sale` is the sale whose "Dons" it is
 * (part 2 §2.6 New sale), absent for a gift recorded on its own.
 */
export type NewDonation = {
  subscriberId: number;
  amount: string;
  currencyId: number;
  currencySymbol: string;
  donationDate: string;
  notes: string;
  sale?: { id: number; ref: number };
};

/**
 * The writes of donations on a caller's transaction, each with its line in the donor's history
 * (docs/spec/design.md, History): the one path of a gift recorded on the Donations screen (part 2 §2.4)
 * and of the gift of a sale (part 2 §2.6 New sale), which is receipted like any other (CGI art. 200).
 */
export function createDonationWrites({
  repository,
  subscribersService,
}: {
  repository: Pick<DonationsRepository, 'insert' | 'delete' | 'lockById' | 'lockBySale' | 'findListItem'>;
  subscribersService: Pick<SubscribersService, 'addHistory'>;
}) {
  return {
    /**
     * Inserts `gift` as added by `user` and writes "Donation of 25,00 € dated 2026-03-14 added." in the
     * donor's history ("… added with the sale #12." for a sale's gift). The caller checked the donor
     * and the date. @returns the donation's id.
     */
    addOn: async (tx: Executor, gift: NewDonation, user: AuthUser): Promise<number> => {
      const id = await repository.insert(tx, {
        subscriberId: gift.subscriberId,
        amount: gift.amount,
        currencyId: gift.currencyId,
        donationDate: gift.donationDate,
        notes: gift.notes,
        addedBy: user.fullName,
        ...(gift.sale ? { saleId: gift.sale.id } : {}),
      });
      const withSale = gift.sale ? ` with the sale #${gift.sale.ref}` : '';
      await subscribersService.addHistory(tx, {
        subscriberId: gift.subscriberId,
        userName: user.fullName,
        description: `Donation of ${formatAmount(Number(gift.amount), gift.currencySymbol)} dated ${gift.donationDate} added${withSale}.`,
      });
      return id;
    },

    /**
     * The gift of sale `saleId` (part 2 §2.6), locked for the rest of `tx`, as a list row: amount
     * (`numeric` text), currency symbol, date, and `receiptNumber`, null while no receipt covers it.
     * @returns undefined when the sale has no gift.
     */
    findForSaleOn: async (tx: Executor, saleId: number): Promise<DonationListRow | undefined> => {
      const locked = await repository.lockBySale(tx, saleId);
      return locked ? repository.findListItem(tx, locked.id) : undefined;
    },

    /**
     * Donation `id`, locked for the rest of `tx`, as a list row, like `findForSaleOn`.
     * @returns undefined when no donation has this id.
     */
    findLockedOn: async (tx: Executor, id: number): Promise<DonationListRow | undefined> => {
      const locked = await repository.lockById(tx, id);
      return locked ? repository.findListItem(tx, locked.id) : undefined;
    },

    /**
     * Deletes the donation of `row`, locked by the caller, who checked that no receipt covers it (a
     * covered one is left as it is), and writes "Donation of 25,00 € dated 2026-03-14 deleted." in the
     * donor's history, with `context` after "deleted" when given ("with the sale #12").
     */
    removeOn: async (tx: Executor, row: DonationListRow, user: AuthUser, context?: string) => {
      await repository.delete(tx, row.id);
      await subscribersService.addHistory(tx, {
        subscriberId: row.subscriberId,
        userName: user.fullName,
        description: `Donation of ${formatAmount(Number(row.amount), row.currencySymbol)} dated ${row.donationDate} deleted${context ? ` ${context}` : ''}.`,
      });
    },
  };
}

export type DonationWrites = ReturnType<typeof createDonationWrites>;

/** Donations (part 2 §2.4, §7 Donations). */
export function createDonationsService({
  db,
  clock,
  timeZone = DEFAULT_TIME_ZONE,
  repository,
  subscribersService,
}: {
  db: Database;
  clock: Clock;
  /** IANA zone whose "today" a donation date may not pass (docs/decisions/012). */
  timeZone?: string;
  repository: DonationsRepository;
  subscribersService: SubscribersService;
}) {
  const notFound = (id: number) => createDonationNotFoundError(`No donation has id ${id}.`);
  const writes = createDonationWrites({ repository, subscribersService });

  return {
    /** `GET /api/donations`: `{count, countIsExact, models}`, newest donation first. */
    search: async (query: DonationSearchQuery): Promise<DonationSearchResult> => {
      const { count, countIsExact, rows } = await repository.search(db, query);
      return { count, countIsExact, models: rows.map(toDonationListItem) };
    },

    /**
     * `POST /api/donations`: records a gift in the donor's currency and writes their history.
     * @throws 400 `donations.unknown_subscriber` (field `subid`) or `donations.future_date` (field `donationDate`).
     */
    create: async (input: CreateDonation, user: AuthUser): Promise<DonationListItem> => {
      const today = calendarDay(clock.now(), timeZone);
      if (input.donationDate > today) {
        throw createFutureDonationDateError(`The donation date ${input.donationDate} is in the future.`, [
          { path: 'donationDate', message: 'The donation date cannot be in the future.' },
        ]);
      }
      return db.transaction(async (tx) => {
        const donor = await subscribersService.findVisibleWithCurrency(tx, input.subid);
        if (!donor) {
          throw createDonationSubscriberUnknownError(`No subscriber has id ${input.subid}.`, [
            { path: 'subid', message: 'This subscriber does not exist.' },
          ]);
        }
        const id = await writes.addOn(
          tx,
          {
            subscriberId: donor.id,
            amount: input.amount.toFixed(2),
            currencyId: donor.currencyId,
            currencySymbol: donor.symbol,
            donationDate: input.donationDate,
            notes: input.notes,
          },
          user,
        );
        const row = await repository.findListItem(tx, id);
        if (!row) throw notFound(id);
        return toDonationListItem(row);
      });
    },

    /**
     * `DELETE /api/donations/{id}`, writing the donor's history. The gift of a sale (part 2 §2.6) goes
     * with its sale (deleted, or refunded by a credit note), so it is refused while the sale stands;
     * once a credit note cancelled the sale, it can be deleted here (a receipt covered it when the sale
     * was cancelled, and was cancelled since).
     * @throws 404; 409 `donations.receipted` when a tax receipt already covers it; 409
     *   `donations.from_sale` when it is the gift of a sale not cancelled.
     */
    remove: (id: number, user: AuthUser) =>
      db.transaction(async (tx) => {
        const locked = await repository.lockById(tx, id);
        if (!locked) throw notFound(id);
        const row = await repository.findListItem(tx, id);
        if (!row) throw notFound(id);
        if (row.receiptNumber !== null) {
          throw createDonationReceiptedError(
            `This donation is on tax receipt n° ${row.receiptNumber}, already issued: it cannot be deleted.`,
          );
        }
        const sale = row.saleId === null ? undefined : await repository.findSale(tx, row.saleId);
        if (sale && sale.creditNoteNumber === null) {
          throw createDonationFromSaleError(
            `This donation is the gift of the sale #${sale.ref}: delete the sale, or cancel it with a credit note, instead.`,
          );
        }
        await writes.removeOn(tx, row, user);
      }),
  };
}

export type DonationsService = ReturnType<typeof createDonationsService>;
