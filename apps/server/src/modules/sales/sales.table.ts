import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { products } from '../products/products.table.ts';
import { currencies } from '../reference-lists/reference-lists.table.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';

/**
 * Sales (part 2 §3). Every figure is the server's own, computed in integer cents with the shared
 * formula of part 2 §9; `ref` is sequential without gaps, allocated from {@link saleCounter}.
 */
export const sales = pgTable(
  'sales',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    ref: integer().notNull(),
    subscriberId: integer()
      .notNull()
      .references(() => subscribers.id),
    fullName: text().notNull(),
    association: text().notNull().default(''),
    currencyId: integer()
      .notNull()
      .references(() => currencies.id),
    swissSale: boolean().notNull(),
    discountPercentage: numeric({ precision: 9, scale: 6 }).notNull(),
    subTotal: numeric({ precision: 12, scale: 2 }).notNull(),
    discountAmount: numeric({ precision: 12, scale: 2 }).notNull(),
    donation: numeric({ precision: 12, scale: 2 }).notNull(),
    deliveryCharge: numeric({ precision: 12, scale: 2 }).notNull(),
    total: numeric({ precision: 12, scale: 2 }).notNull(),
    includeThanks: boolean().notNull(),
    includePaymentTerms: boolean().notNull(),
    paymentTermDays: integer().notNull(),
    addr1: text().notNull().default(''),
    addr2: text().notNull().default(''),
    addr3: text().notNull().default(''),
    town: text().notNull().default(''),
    postcode: text().notNull().default(''),
    /** The country's full name, as the payload carries it. */
    country: text().notNull().default(''),
    orderNumber: text().notNull().default(''),
    deliveryAddress: text().notNull().default(''),
    notes: text().notNull().default(''),
    addedBy: text().notNull(),
    addedOn: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * When the invoice was first handed out (its PDF produced, for a download or an email); null
     * while it never was. Once set, the sale can no longer be deleted, only cancelled by a credit note.
     */
    invoiceIssuedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /**
     * Set with `invoiceIssuedAt` (docs/decisions/031): the reference the buyer quotes when paying (a
     * QR reference or an RF creditor reference) and the IBAN or QR-IBAN the invoice asks to pay to
     * (null when the settings had no account in its currency). Null on invoices issued before.
     */
    paymentReference: text(),
    paymentIban: text(),
    /** The sum of the invoice's payments ({@link salePayments}), units of the sale's currency. */
    paidAmount: numeric({ precision: 12, scale: 2 }).notNull().default('0'),
    /** How many payment reminders were emailed, and the day of the last (docs/decisions/034). */
    reminderLevel: integer().notNull().default(0),
    lastReminderOn: date({ mode: 'string' }),
    /**
     * The buyer's `search_last_name`, copied by triggers (migration 0060) on insert, on a move to another
     * buyer and when the buyer is renamed: never written by the application.
     */
    subscriberSearchLastName: text().notNull().default(''),
  },
  (table) => [
    uniqueIndex('sales_payment_reference_key')
      .on(table.paymentReference)
      .where(sql`${table.paymentReference} is not null`),
    uniqueIndex('sales_ref_unique').on(table.ref),
    index('sales_added_on_idx').on(table.addedOn, table.id),
    index('sales_subscriber_idx').on(table.subscriberId, table.addedOn, table.id),
    /** A buyer's name's sales by date, read alone: a sales search by name (docs/decisions/016). */
    index('sales_subscriber_last_name_idx').on(table.subscriberSearchLastName, table.addedOn, table.id),
    index('sales_open_invoices_idx')
      .on(table.invoiceIssuedAt)
      .where(sql`${table.invoiceIssuedAt} is not null and ${table.paidAmount} < ${table.total}`),
  ],
);

/**
 * Payments of invoices (docs/decisions/032): the day paid, the amount (units of the sale's currency),
 * `manual` or from a bank `statement` entry (`entry_ref`, the bank's reference), who recorded it.
 */
export const salePayments = pgTable(
  'sale_payments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    saleId: integer()
      .notNull()
      .references(() => sales.id),
    paidOn: date({ mode: 'string' }).notNull(),
    amount: numeric({ precision: 12, scale: 2 }).notNull(),
    source: text().$type<'manual' | 'statement'>().notNull(),
    entryRef: text(),
    recordedBy: text().notNull(),
    recordedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('sale_payments_sale_idx').on(table.saleId),
    check('sale_payments_amount_check', sql`${table.amount} > 0`),
    check('sale_payments_source_check', sql`${table.source} in ('manual', 'statement')`),
  ],
);

/**
 * Line items copy the product's name and both unit prices at the time of sale (soft deletes:
 * docs/spec/design.md §Contract decisions the spec leaves open).
 */
export const saleLines = pgTable(
  'sale_lines',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    saleId: integer()
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    productId: integer()
      .notNull()
      .references(() => products.id),
    productName: text().notNull(),
    quantity: integer().notNull(),
    euroUnitPrice: numeric({ precision: 12, scale: 2 }).notNull(),
    swissUnitPrice: numeric({ precision: 12, scale: 2 }).notNull(),
    unitPrice: numeric({ precision: 12, scale: 2 }).notNull(),
    lineTotal: numeric({ precision: 12, scale: 2 }).notNull(),
  },
  (table) => [
    index('sale_lines_sale_idx').on(table.saleId),
    index('sale_lines_product_idx').on(table.productId, table.saleId),
  ],
);

/** The last sale reference handed out; one row (id = 1), locked by the UPDATE that allocates. */
export const saleCounter = pgTable('sale_counter', {
  id: integer().primaryKey(),
  lastRef: integer().notNull().default(0),
});
