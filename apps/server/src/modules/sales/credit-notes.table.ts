import { integer, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sales } from './sales.table.ts';

/**
 * Credit notes (avoirs): each cancels one issued invoice, with its own gapless `number` allocated
 * from {@link creditNoteCounter} in the cancelling transaction. Immutable once written (a trigger
 * refuses UPDATE and DELETE); the sale it cancels can no longer be deleted (foreign key, no cascade).
 * `amount` is the sale's total in the sale's currency, copied with the currency's symbol and name.
 */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    number: integer().notNull(),
    saleId: integer()
      .notNull()
      .references(() => sales.id, { onDelete: 'restrict' }),
    /** The cancelled invoice's number (the sale's `ref`), copied. */
    saleRef: integer().notNull(),
    reason: text().notNull(),
    amount: numeric({ precision: 12, scale: 2 }).notNull(),
    currencySymbol: text().notNull(),
    currencyName: text().notNull(),
    issuedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    issuedBy: text().notNull(),
    issuedByUserId: integer(),
  },
  (table) => [
    uniqueIndex('credit_notes_number_unique').on(table.number),
    uniqueIndex('credit_notes_sale_unique').on(table.saleId),
  ],
);

/** The last credit note number handed out; one row (id = 1), locked by the UPDATE that allocates. */
export const creditNoteCounter = pgTable('credit_note_counter', {
  id: integer().primaryKey(),
  lastNumber: integer().notNull().default(0),
});
