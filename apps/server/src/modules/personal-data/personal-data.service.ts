import { calendarDay } from '@back-office/contract/calendar';
import { personalDataFileName } from '@back-office/contract/personal-data';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { DonationsRepository } from '../donations/donations.repository.ts';
import type { ReceiptsRepository } from '../donations/receipts.repository.ts';
import type { ReceiptsService } from '../donations/receipts.service.ts';
import type { SalesRepository } from '../sales/sales.repository.ts';
import type { SalesService } from '../sales/sales.service.ts';
import { createSubscriberNotFoundError } from '../subscribers/subscribers.errors.ts';
import type { SubscribersRepository } from '../subscribers/subscribers.repository.ts';
import { type SubscribersService, toSubscriberDto } from '../subscribers/subscribers.service.ts';
import type { PersonalDataRepository } from './personal-data.repository.ts';
import { type ArchiveEntry, jsonFile, zipArchive } from './personal-data-archive.ts';

/** What the donations module gives personal-data rights (its `personalData`). */
export type DonationsPersonalData = {
  receiptsOf: ReceiptsService['receiptsOf'];
  keepDonorAsIssued: ReceiptsRepository['keepDonorAsIssued'];
  clearDonationNotes: DonationsRepository['clearNotesOf'];
  forgetReceiptDonors: ReceiptsRepository['forgetDonors'];
  hasReceiptDonorsToForget: ReceiptsRepository['hasDonorsToForget'];
};

/** What the sales module gives personal-data rights (its `personalData`). */
export type SalesPersonalData = {
  salesOf: SalesService['salesOf'];
  forgetBuyers: SalesRepository['forgetBuyers'];
  hasBuyersToForget: SalesRepository['hasBuyersToForget'];
};

/** A ZIP to download: its name and bytes. */
export type PersonalDataArchive = { filename: string; zip: Buffer };

const units = (numeric: string) => Number(numeric);

/** How the audit trail names a subscriber: by id only, so that it keeps no name to erase. */
const subscriberEntity = (id: number) => ({ type: 'subscriber' as const, id, label: `Subscriber ${id}` });

/** The instant `years` calendar years before `now` (29 February becomes 1 March). */
export function yearsBefore(now: Date, years: number): Date {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - years);
  return cutoff;
}

/**
 * Personal-data rights of a subscriber (GDPR art. 15, 17 and 20; Swiss nFADP; docs/decisions/019): the
 * archive of what the register holds about them, the anonymisation, and the purge of what their kept
 * documents still carry once past the retention period.
 */
export function createPersonalDataService({
  db,
  clock,
  timeZone,
  repository,
  audit,
  subscribersService,
  subscribersRepository,
  donations,
  sales,
}: {
  db: Database;
  clock: Clock;
  /** The organisation's zone, whose day names the archive (docs/decisions/012). */
  timeZone: string;
  repository: PersonalDataRepository;
  audit: AuditService;
  subscribersService: SubscribersService;
  subscribersRepository: SubscribersRepository;
  donations: DonationsPersonalData;
  sales: SalesPersonalData;
}) {
  /** Issued before this instant, a kept document is past the retention period of the settings. */
  async function retentionCutoff() {
    return yearsBefore(clock.now(), await repository.retentionYears(db));
  }

  return {
    /**
     * `GET /api/subscribers/{id}/personal-data` (GDPR art. 15 and 20): a ZIP named
     * `personal-data-{id}-{YYYY-MM-DD}.zip` holding `subscriber.json` (the record as `GET
     * /api/subscribers/{id}` answers it), `history.json` (as `GET …/history`, newest first), `mandates.json`
     * (the SEPA mandates, oldest first), `bank-statement-entries.json` (the entries assigned or matched
     * to them, oldest first),
     * `donations.json`, `sales.json` (with their lines), `receipts.json`, and the PDFs of their
     * receipts (`receipts/receipt-{number}.pdf`) and issued invoices
     * (`invoices/sale-invoice-{ref}.pdf`) as issued; amounts are numbers in the document's currency,
     * instants ISO 8601. Deleted and anonymised subscribers too. Nothing is issued by it; the download
     * is recorded in the audit trail as `actor`'s. @throws 404 for an unknown id.
     */
    archive: async (id: number, actor: AuthUser): Promise<PersonalDataArchive> => {
      const found = await subscribersRepository.findById(db, id);
      if (!found) throw createSubscriberNotFoundError(`No subscriber has id ${id}.`);
      const history = await subscribersService.history(id);
      const gifts = await repository.listDonations(db, id);
      const receipts = await donations.receiptsOf(id);
      const { sales: sold, invoices } = await sales.salesOf(id);
      const entries: ArchiveEntry[] = [
        { name: 'subscriber.json', content: jsonFile(toSubscriberDto(found.row, found.tags)) },
        { name: 'history.json', content: jsonFile(history) },
        { name: 'mandates.json', content: jsonFile(await repository.listMandates(db, id)) },
        {
          name: 'bank-statement-entries.json',
          content: jsonFile(await repository.listStatementEntries(db, id)),
        },
        {
          name: 'donations.json',
          content: jsonFile(
            gifts.map((gift) => ({
              id: gift.id,
              donationDate: gift.donationDate,
              amount: units(gift.amount),
              currencyName: gift.currencyName,
              currencySymbol: gift.currencySymbol,
              notes: gift.notes,
              addedBy: gift.addedBy,
              addedOn: gift.addedOn.toISOString(),
              receiptNumber: gift.receiptNumber,
            })),
          ),
        },
        {
          name: 'sales.json',
          content: jsonFile(
            sold.map(({ sale, lines, currencyName, currencySymbol }) => ({
              id: sale.id,
              ref: sale.ref,
              dateAdded: sale.addedOn.toISOString(),
              fullName: sale.fullName,
              association: sale.association,
              addr1: sale.addr1,
              addr2: sale.addr2,
              addr3: sale.addr3,
              town: sale.town,
              postcode: sale.postcode,
              country: sale.country,
              orderNumber: sale.orderNumber,
              deliveryAddress: sale.deliveryAddress,
              notes: sale.notes,
              currencyName,
              currencySymbol,
              swissSale: sale.swissSale,
              subTotal: units(sale.subTotal),
              discountPercentage: units(sale.discountPercentage),
              discountAmount: units(sale.discountAmount),
              donation: units(sale.donation),
              deliveryCharge: units(sale.deliveryCharge),
              total: units(sale.total),
              addedBy: sale.addedBy,
              invoiceIssuedAt: sale.invoiceIssuedAt?.toISOString() ?? null,
              lines: lines.map((line) => ({
                productId: line.productId,
                productName: line.productName,
                quantity: line.quantity,
                unitPrice: units(line.unitPrice),
                lineTotal: units(line.lineTotal),
              })),
            })),
          ),
        },
        {
          name: 'receipts.json',
          content: jsonFile(
            receipts.map(({ receipt, currencySymbol, filename }) => ({
              number: receipt.number,
              kind: receipt.kind,
              year: receipt.year,
              total: units(receipt.total),
              currencySymbol,
              issuedAt: receipt.issuedAt.toISOString(),
              issuedBy: receipt.issuedBy,
              file: `receipts/${filename}`,
            })),
          ),
        },
        ...receipts.map((file) => ({ name: `receipts/${file.filename}`, content: file.pdf })),
        ...invoices.map((file) => ({ name: `invoices/${file.filename}`, content: file.pdf })),
      ];
      const now = clock.now();
      const zip = await zipArchive(entries, now);
      await audit.record(db, {
        actor,
        entity: subscriberEntity(id),
        action: 'personal_data_exported',
        after: { receipts: receipts.length, invoices: invoices.length },
      });
      return { filename: personalDataFileName(id, calendarDay(now, timeZone)), zip };
    },

    /**
     * `POST /api/subscribers/{id}/anonymise` (GDPR art. 17): in one transaction, keeps a copy of the
     * donor on their receipts (which stay as issued), erases the identity (see the subscribers
     * service's `anonymiseOn`), empties the notes of their donations and the buyer copies of their
     * sales whose invoice was never issued, forgets what imports and merges kept of them for an undo,
     * erases the accounts of their SEPA mandates (revoking the active ones) and the payer data of their
     * bank statement entries, and records it with
     * `reason` in the audit trail. Amounts,
     * dates, numbers and issued invoices stay. Irreversible. @throws 404; 409 `subscribers.anonymised`.
     */
    anonymise: (id: number, reason: string, actor: AuthUser) =>
      db.transaction(async (tx) => {
        const locked = await subscribersService.lockForAnonymisation(tx, id);
        // Before the record's and the mandates' IBANs are erased: they find the payer's entries.
        await repository.forgetStatementEntries(tx, id);
        await donations.keepDonorAsIssued(tx, id);
        await subscribersService.anonymiseOn(tx, locked, { reason, user: actor, at: clock.now() });
        await donations.clearDonationNotes(tx, id);
        await sales.forgetBuyers(tx, { subscriberId: id, uninvoiced: true });
        await repository.forgetImportsAndMerges(tx, id);
        await repository.forgetMandates(tx, id, calendarDay(clock.now(), timeZone));
        await audit.record(tx, {
          actor,
          entity: subscriberEntity(id),
          action: 'anonymised',
          after: { reason },
        });
      }),

    /** Whether {@link purge} has anything to do now (the repeating job's `hasWork`). */
    hasPurgeable: async () => {
      if (!(await repository.anyAnonymised(db))) return false;
      const cutoff = await retentionCutoff();
      return (
        (await donations.hasReceiptDonorsToForget(db, cutoff)) || (await sales.hasBuyersToForget(db, cutoff))
      );
    },

    /**
     * The `personal-data.purge` job: for anonymised subscribers, the receipts issued and the invoices
     * issued more than `documentRetentionYears` ago lose the personal data they still carried (the
     * receipts' donor copy; the sales' buyer name and address copies), in one transaction, with one
     * audit event (actor: the system) per subscriber. Idempotent. Resolves with how many subscribers.
     */
    purge: async () => {
      const cutoff = await retentionCutoff();
      return db.transaction(async (tx) => {
        const counts = new Map<number, { receipts: number; sales: number }>();
        const count = (id: number, key: 'receipts' | 'sales') => {
          const entry = counts.get(id) ?? { receipts: 0, sales: 0 };
          entry[key] += 1;
          counts.set(id, entry);
        };
        for (const id of await donations.forgetReceiptDonors(tx, cutoff)) count(id, 'receipts');
        for (const id of await sales.forgetBuyers(tx, { issuedBefore: cutoff })) count(id, 'sales');
        for (const [id, after] of counts) {
          await audit.record(tx, {
            actor: null,
            entity: subscriberEntity(id),
            action: 'personal_data_purged',
            after,
          });
        }
        return counts.size;
      });
    },
  };
}

export type PersonalDataService = ReturnType<typeof createPersonalDataService>;
