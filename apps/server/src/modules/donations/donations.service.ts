import { calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import type {
  CreateDonation,
  DonationListItem,
  DonationSearchQuery,
  DonationSearchResult,
} from '@back-office/contract/donations';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatAmount } from '../../lib/money.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import { subscriberName } from '../subscribers/subscribers.service.ts';
import {
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
  };
}

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
        const id = await repository.insert(tx, {
          subscriberId: donor.id,
          amount: input.amount.toFixed(2),
          currencyId: donor.currencyId,
          donationDate: input.donationDate,
          notes: input.notes,
          addedBy: user.fullName,
        });
        await subscribersService.addHistory(tx, {
          subscriberId: donor.id,
          userName: user.fullName,
          description: `Donation of ${formatAmount(input.amount, donor.symbol)} dated ${input.donationDate} added.`,
        });
        const row = await repository.findListItem(tx, id);
        if (!row) throw notFound(id);
        return toDonationListItem(row);
      });
    },

    /**
     * `DELETE /api/donations/{id}`, writing the donor's history.
     * @throws 404; 409 `donations.receipted` when a tax receipt already covers it.
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
        await repository.delete(tx, id);
        await subscribersService.addHistory(tx, {
          subscriberId: row.subscriberId,
          userName: user.fullName,
          description: `Donation of ${formatAmount(Number(row.amount), row.currencySymbol)} dated ${row.donationDate} deleted.`,
        });
      }),
  };
}

export type DonationsService = ReturnType<typeof createDonationsService>;
