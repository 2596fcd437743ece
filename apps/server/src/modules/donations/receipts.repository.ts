import { and, asc, eq, gte, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { allocateNumber } from '../../db/counters.ts';
import { countries, currencies, paymentMethods } from '../reference-lists/reference-lists.table.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';
import { donations, type ReceiptDonor, receiptCounter, receipts } from './donations.table.ts';

export type ReceiptRow = typeof receipts.$inferSelect;

/** All SQL of tax receipts (docs/decisions/005). */
export function createReceiptsRepository() {
  return {
    /** The next receipt number, inside the caller's transaction: a rollback gives it back (no gaps). */
    allocateNumber: (db: Executor) => allocateNumber(db, receiptCounter, receiptCounter.lastNumber),

    insert: async (db: Executor, values: typeof receipts.$inferInsert) => {
      const [row] = await db.insert(receipts).values(values).returning();
      if (!row) throw new Error('insert into receipts returned no row');
      return row;
    },

    coverDonations: (db: Executor, receiptId: number, donationIds: number[]) =>
      db
        .update(donations)
        .set({ receiptId })
        .where(and(sql`${donations.id} in (${sql.join(donationIds, sql`, `)})`, isNull(donations.receiptId))),

    findById: async (db: Executor, id: number) => {
      const [row] = await db.select().from(receipts).where(eq(receipts.id, id));
      return row;
    },

    /** The donation locked for the rest of the transaction, so two requests issue one receipt. */
    lockDonation: async (db: Executor, id: number) => {
      const [row] = await db.select().from(donations).where(eq(donations.id, id)).for('update');
      return row;
    },

    /** Locks the donor, so two requests for the same annual receipt issue one. */
    lockSubscriber: async (db: Executor, id: number) => {
      const [row] = await db
        .select({ id: subscribers.id })
        .from(subscribers)
        .where(eq(subscribers.id, id))
        .for('update');
      return row;
    },

    /** The donor's gifts of `year` that no receipt covers yet, oldest first. */
    listUncoveredDonations: (db: Executor, subscriberId: number, year: number) =>
      db
        .select()
        .from(donations)
        .where(
          and(
            eq(donations.subscriberId, subscriberId),
            gte(donations.donationDate, `${year}-01-01`),
            lt(donations.donationDate, `${year + 1}-01-01`),
            isNull(donations.receiptId),
          ),
        )
        .orderBy(asc(donations.donationDate), asc(donations.id)),

    listAnnualReceipts: (db: Executor, subscriberId: number, year: number) =>
      db
        .select()
        .from(receipts)
        .where(
          and(eq(receipts.subscriberId, subscriberId), eq(receipts.year, year), eq(receipts.kind, 'annual')),
        )
        .orderBy(asc(receipts.number)),

    /**
     * Everything a receipt document shows: the donations it covers, the donor and the currency. The
     * donor is the copy kept on the receipt when there is one (an anonymised donor,
     * docs/decisions/019), else the subscriber as they are now.
     */
    loadDocumentData: async (db: Executor, receipt: ReceiptRow) => {
      const covered = await db
        .select({ id: donations.id, amount: donations.amount, donationDate: donations.donationDate })
        .from(donations)
        .where(eq(donations.receiptId, receipt.id))
        .orderBy(asc(donations.donationDate), asc(donations.id));
      const [current] = receipt.donor
        ? []
        : await db
            .select({
              title: subscribers.title,
              firstName: subscribers.firstName,
              lastName: subscribers.lastName,
              email: subscribers.email,
              address1: subscribers.address1,
              address2: subscribers.address2,
              address3: subscribers.address3,
              postcode: subscribers.postcode,
              town: subscribers.town,
              country: countries.name,
              paymentMethod: paymentMethods.name,
            })
            .from(subscribers)
            .leftJoin(countries, eq(countries.id, subscribers.countryId))
            .leftJoin(paymentMethods, eq(paymentMethods.id, subscribers.paymentMethodId))
            .where(eq(subscribers.id, receipt.subscriberId));
      const donor: ReceiptDonor | undefined = receipt.donor ?? current;
      const [currency] = await db.select().from(currencies).where(eq(currencies.id, receipt.currencyId));
      if (!donor || !currency) throw new Error(`receipt ${receipt.id} lost its donor or currency`);
      return { receipt, donations: covered, donor, currency };
    },

    /** The donor's receipts, by number (GDPR art. 15 archive). */
    listBySubscriber: (db: Executor, subscriberId: number) =>
      db.select().from(receipts).where(eq(receipts.subscriberId, subscriberId)).orderBy(asc(receipts.number)),

    /**
     * Copies the donor block as printed now onto each of their receipts that has no copy yet, before
     * the donor is anonymised, so the receipts stay as issued (docs/decisions/019). The email is not
     * copied: it is not printed, and a receipt of an anonymised donor must never be emailed.
     */
    keepDonorAsIssued: async (db: Executor, subscriberId: number) => {
      await db.execute(sql`
        update ${receipts} set donor = jsonb_build_object(
          'title', s.title, 'firstName', s.first_name, 'lastName', s.last_name, 'email', '',
          'address1', s.address1, 'address2', s.address2, 'address3', s.address3,
          'postcode', s.postcode, 'town', s.town, 'country', c.name, 'paymentMethod', p.name)
        from ${subscribers} s
        left join ${countries} c on c.id = s.country_id
        left join ${paymentMethods} p on p.id = s.payment_method_id
        where s.id = ${receipts.subscriberId} and ${receipts.subscriberId} = ${subscriberId}
          and ${receipts.donor} is null`);
    },

    /**
     * Drops the donor copies of anonymised donors' receipts issued before `issuedBefore`: the receipt
     * then prints the anonymised record. Resolves with the donor of each receipt changed.
     */
    forgetDonors: async (db: Executor, issuedBefore: Date) => {
      const rows = await db
        .update(receipts)
        .set({ donor: null })
        .where(and(isNotNull(receipts.donor), lt(receipts.issuedAt, issuedBefore), anonymisedDonor))
        .returning({ subscriberId: receipts.subscriberId });
      return rows.map((row) => row.subscriberId);
    },

    /** Whether {@link forgetDonors} has anything to do. */
    hasDonorsToForget: async (db: Executor, issuedBefore: Date) => {
      const rows = await db
        .select({ id: receipts.id })
        .from(receipts)
        .where(and(isNotNull(receipts.donor), lt(receipts.issuedAt, issuedBefore), anonymisedDonor))
        .limit(1);
      return rows.length > 0;
    },
  };
}

/** The receipt's donor is anonymised (through the partial index of anonymised subscribers). */
const anonymisedDonor = sql`${receipts.subscriberId} in (select id from ${subscribers} where ${subscribers.anonymisedAt} is not null)`;

export type ReceiptsRepository = ReturnType<typeof createReceiptsRepository>;
export type ReceiptDocumentData = Awaited<ReturnType<ReceiptsRepository['loadDocumentData']>>;
