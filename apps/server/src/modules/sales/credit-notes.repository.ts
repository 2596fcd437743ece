import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { allocateNumber } from '../../db/counters.ts';
import { creditNoteCounter, creditNotes } from './credit-notes.table.ts';
import type { InvoicePayment } from './payment-reference.ts';
import { sales } from './sales.table.ts';

export type CreditNoteRow = typeof creditNotes.$inferSelect;

/** All SQL of credit notes (avoirs) and of the issue date of invoices. */
export function createCreditNotesRepository() {
  return {
    /** The next credit note number, inside the cancelling transaction: a rollback gives it back (no gaps). */
    allocateNumber: (db: Executor) => allocateNumber(db, creditNoteCounter, creditNoteCounter.lastNumber),

    /**
     * Records that the sale's invoice is handed out, the first time only. The UPDATE takes the
     * sale's row lock, so it queues behind a delete in progress (and then finds no row) and a later
     * delete queues behind it (and then sees the date): a delete never succeeds once a PDF left.
     * The first time, the invoice's payment reference and account are stored with it, issued `at` (the
     * app's clock, whose day the due date counts from).
     * @returns false when no sale has this id.
     */
    markInvoiceIssued: async (db: Executor, saleId: number, payment: InvoicePayment, at: Date) => {
      const marked = await db
        .update(sales)
        .set({ invoiceIssuedAt: at, paymentReference: payment.reference, paymentIban: payment.iban })
        .where(and(eq(sales.id, saleId), isNull(sales.invoiceIssuedAt)))
        .returning({ id: sales.id });
      if (marked.length > 0) return true;
      const [exists] = await db.select({ id: sales.id }).from(sales).where(eq(sales.id, saleId));
      return exists !== undefined;
    },

    insert: async (db: Executor, values: typeof creditNotes.$inferInsert) => {
      const [row] = await db.insert(creditNotes).values(values).returning();
      if (!row) throw new Error('insert into credit_notes returned no row');
      return row;
    },

    /** The credit note of a sale, if it was cancelled. */
    findBySale: async (db: Executor, saleId: number) => {
      const [row] = await db.select().from(creditNotes).where(eq(creditNotes.saleId, saleId));
      return row;
    },

    /** Credit note numbers by sale id, for the given sales (those not cancelled are absent). */
    numbersBySale: async (db: Executor, saleIds: number[]) => {
      if (saleIds.length === 0) return new Map<number, number>();
      const rows = await db
        .select({ saleId: creditNotes.saleId, number: creditNotes.number })
        .from(creditNotes)
        .where(inArray(creditNotes.saleId, saleIds));
      return new Map(rows.map((row) => [row.saleId, row.number]));
    },
  };
}

export type CreditNotesRepository = ReturnType<typeof createCreditNotesRepository>;
