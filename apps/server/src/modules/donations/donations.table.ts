import {
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { currencies } from '../reference-lists/reference-lists.table.ts';
import { sales } from '../sales/sales.table.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';

/** The donor block a receipt prints (names, postal address, country and payment method). */
export type ReceiptDonor = {
  title: string;
  firstName: string;
  lastName: string;
  email: string;
  address1: string;
  address2: string;
  address3: string;
  postcode: string;
  town: string;
  country: string | null;
  paymentMethod: string | null;
};

/**
 * A gift a receipt covers, as it was when the receipt was issued: `amount` in the receipt's currency as
 * `numeric` text ("25.00"). A gift made in another currency keeps its own amount and ISO 4217 code in
 * `original`, with the rate it was converted at (units of that currency per unit of the receipt's, as
 * text, "0.9412") and the day of that rate (`YYYY-MM-DD`, docs/decisions/024).
 */
export type ReceiptLine = {
  donationId: number;
  date: string;
  amount: string;
  original?: { amount: string; currency: string; rate: string; rateDate: string };
};

/**
 * Which document a receipt is (docs/decisions/024): `cerfa`, the French "reçu au titre des dons"
 * (Cerfa 11580*05) in euros, or `attestation`, the Swiss "attestation de dons" in francs.
 */
export const RECEIPT_DOCUMENTS = ['cerfa', 'attestation'] as const;
export type ReceiptDocument = (typeof RECEIPT_DOCUMENTS)[number];

/**
 * Tax receipts (Cerfa n° 11580). `number` is sequential without gaps, allocated from
 * {@link receiptCounter} inside the issuing transaction. `kind` is `single` (one donation) or
 * `annual` (a donor's year). A receipt is never edited or deleted (a trigger refuses it, migration
 * 0035): it is `cancelled` (when, by whom, why), the gifts it covered can then be receipted again, and a
 * replacing receipt names it in `replacesNumber`. `lines` are the gifts as issued; `hash` the SHA-256 of
 * its content chained to the previous receipt's (docs/decisions/023).
 */
export const receipts = pgTable(
  'receipts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    number: integer().notNull(),
    kind: text({ enum: ['single', 'annual'] }).notNull(),
    subscriberId: integer()
      .notNull()
      .references(() => subscribers.id),
    year: integer().notNull(),
    total: numeric({ precision: 12, scale: 2 }).notNull(),
    currencyId: integer()
      .notNull()
      .references(() => currencies.id),
    issuedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    issuedBy: text().notNull(),
    /**
     * The donor as the receipt printed them, copied when the donor is anonymised so that the receipt
     * stays as issued; null otherwise (the receipt reads the subscriber) and once the retention period
     * has passed (docs/decisions/019).
     */
    donor: jsonb().$type<ReceiptDonor>(),
    status: text({ enum: ['issued', 'cancelled'] })
      .notNull()
      .default('issued'),
    cancelledAt: timestamp({ withTimezone: true, mode: 'date' }),
    cancelledBy: text(),
    cancelReason: text(),
    replacesNumber: integer(),
    lines: jsonb().$type<ReceiptLine[]>().notNull(),
    hash: text(),
    /** The document it is; `total` and `currencyId` are that document's (euros, francs). */
    document: text({ enum: RECEIPT_DOCUMENTS }).notNull().default('cerfa'),
  },
  (table) => [
    uniqueIndex('receipts_number_unique').on(table.number),
    index('receipts_subscriber_year_idx').on(table.subscriberId, table.year),
    index('receipts_year_number_idx').on(table.year, table.number),
    /** The annual statement reads the receipts issued in a year (CGI art. 222 bis). */
    index('receipts_issued_at_idx').on(table.issuedAt),
  ],
);

/** The last receipt number handed out; one row (id = 1), locked by the UPDATE that allocates. */
export const receiptCounter = pgTable('receipt_counter', {
  id: integer().primaryKey(),
  lastNumber: integer().notNull().default(0),
});

/** Donations (part 2 §3): the amount is in the subscriber's currency at the time of the gift. */
export const donations = pgTable(
  'donations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    subscriberId: integer()
      .notNull()
      .references(() => subscribers.id),
    amount: numeric({ precision: 12, scale: 2 }).notNull(),
    currencyId: integer()
      .notNull()
      .references(() => currencies.id),
    donationDate: date({ mode: 'string' }).notNull(),
    notes: text().notNull().default(''),
    addedBy: text().notNull(),
    addedOn: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The receipt that covers this donation, once issued. */
    receiptId: integer().references(() => receipts.id),
    /** The sale whose "Dons" this gift is (part 2 §2.6), or null for a gift recorded on its own. */
    saleId: integer().references(() => sales.id),
    /**
     * The donor's `search_last_name`, copied by triggers (migration 0060) on insert, on a move to another
     * donor and when the donor is renamed: never written by the application.
     */
    subscriberSearchLastName: text().notNull().default(''),
  },
  (table) => [
    index('donations_date_idx').on(table.donationDate, table.id, table.amount),
    /**
     * A donor's gifts by date, with their amount: a search by the donors' country and an amount merges
     * this index with the donors' own, both read alone (donation search speed goal; migration 0057).
     */
    index('donations_subscriber_date_idx').on(table.subscriberId, table.donationDate, table.id, table.amount),
    index('donations_receipt_idx').on(table.receiptId),
    uniqueIndex('donations_sale_unique').on(table.saleId),
    /**
     * Counting a search by amount reads this index only, with the donor to join on (donation search
     * speed goal).
     */
    index('donations_amount_idx').on(table.amount, table.subscriberId),
    /**
     * A donor's name's gifts by date, read alone: a donation search by name (docs/decisions/016;
     * `subscriberLastNameSql`).
     */
    index('donations_subscriber_last_name_idx').on(
      table.subscriberSearchLastName,
      table.donationDate,
      table.id,
    ),
  ],
);

export type DonationRow = typeof donations.$inferSelect;
