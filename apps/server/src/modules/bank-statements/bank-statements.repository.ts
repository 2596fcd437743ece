import type { StatementEntryListQuery } from '@back-office/contract/bank-statements';
import { asc, count, eq, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { sales } from '../sales/sales.table.ts';
import { type BankStatementEntryRow, bankStatementEntries } from './bank-statements.table.ts';

/** Entries written by one insert statement (about 20 parameters each; a statement takes 65,535). */
const INSERT_BATCH = 1000;

/** A new entry, as read from the bank's file. */
export type NewStatementEntry = typeof bankStatementEntries.$inferInsert;

/**
 * An invoice a credit may pay: issued, not cancelled by a credit note, not paid in full. `remaining`
 * is in cents of `currency` (ISO 4217, null when the sale's currency has no code).
 */
export type OpenInvoice = {
  id: number;
  ref: number;
  subscriberId: number;
  paymentReference: string | null;
  currency: string | null;
  remainingCents: number;
};

const openInvoiceColumns = sql`s.id, s.ref, s.subscriber_id as "subscriberId",
  s.payment_reference as "paymentReference", c.iso_code as currency,
  ((s.total - s.paid_amount) * 100)::bigint::int as "remainingCents"`;

const openInvoiceFrom = sql`from sales s join currencies c on c.id = s.currency_id
  where s.invoice_issued_at is not null and s.paid_amount < s.total
    and not exists (select 1 from credit_notes cn where cn.sale_id = s.id)`;

const inList = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/** All SQL of bank statement entries (contract `bank-statements`). Every function runs on the executor given. */
export function createBankStatementsRepository() {
  return {
    /**
     * Inserts the entries whose bank reference is new, {@link INSERT_BATCH} per statement; one whose
     * reference is stored already (or repeated in `entries`) is skipped.
     * @returns the entries inserted, with their ids.
     */
    insertNew: async (db: Executor, entries: NewStatementEntry[]): Promise<BankStatementEntryRow[]> => {
      const inserted: BankStatementEntryRow[] = [];
      for (let start = 0; start < entries.length; start += INSERT_BATCH) {
        inserted.push(
          ...(await db
            .insert(bankStatementEntries)
            .values(entries.slice(start, start + INSERT_BATCH))
            .onConflictDoNothing({ target: bankStatementEntries.entryRef })
            .returning()),
        );
      }
      return inserted;
    },

    /** The open invoices whose payment reference is one of `references`. */
    openInvoicesByPaymentReference: (db: Executor, references: string[]): Promise<OpenInvoice[]> =>
      references.length === 0
        ? Promise.resolve([])
        : queryRows<OpenInvoice>(
            db,
            sql`select ${openInvoiceColumns} ${openInvoiceFrom} and s.payment_reference in (${inList(references)})`,
          ),

    /** The open invoices of the sales whose reference (the invoice number) is one of `refs`. */
    openInvoicesBySaleRef: (db: Executor, refs: number[]): Promise<OpenInvoice[]> =>
      refs.length === 0
        ? Promise.resolve([])
        : queryRows<OpenInvoice>(
            db,
            sql`select ${openInvoiceColumns} ${openInvoiceFrom} and s.ref in (${inList(refs)})`,
          ),

    /** The open invoices of the subscribers `subscriberIds`, oldest first. */
    openInvoicesOfSubscribers: (db: Executor, subscriberIds: number[]): Promise<OpenInvoice[]> =>
      subscriberIds.length === 0
        ? Promise.resolve([])
        : queryRows<OpenInvoice>(
            db,
            sql`select ${openInvoiceColumns} ${openInvoiceFrom}
              and s.subscriber_id in (${inList(subscriberIds)}) order by s.ref`,
          ),

    /**
     * Who holds each of `ibans` (without spaces, capitals): the subscribers (not deleted) whose record
     * or one of whose mandates has it. An IBAN two subscribers share is left out: it names nobody.
     */
    ownersOfIbans: async (db: Executor, ibans: string[]): Promise<Map<string, number>> => {
      if (ibans.length === 0) return new Map();
      const rows = await queryRows<{ iban: string; subscriberId: number }>(
        db,
        sql`select iban, min(subscriber_id) as "subscriberId" from (
            select upper(replace(s.iban, ' ', '')) as iban, s.id as subscriber_id from subscribers s
              where not s.hidden and s.iban <> '' and upper(replace(s.iban, ' ', '')) in (${inList(ibans)})
            union
            select m.iban, m.subscriber_id from mandates m join subscribers s on s.id = m.subscriber_id
              where not s.hidden and m.iban <> '' and m.iban in (${inList(ibans)})
          ) owners group by iban having count(distinct subscriber_id) = 1`,
      );
      return new Map(rows.map((row) => [row.iban, row.subscriberId]));
    },

    /** Entry `id`, locked for the rest of the transaction. */
    lock: async (db: Executor, id: number): Promise<BankStatementEntryRow | undefined> => {
      const [row] = await db
        .select()
        .from(bankStatementEntries)
        .where(eq(bankStatementEntries.id, id))
        .for('update');
      return row;
    },

    /** Marks entries matched to the payments recorded for them, a few statements in all. */
    markMatched: async (
      db: Executor,
      matched: ReadonlyArray<{ id: number; saleId: number; paymentId: number; subscriberId: number }>,
    ): Promise<void> => {
      for (let start = 0; start < matched.length; start += INSERT_BATCH) {
        const values = sql.join(
          matched
            .slice(start, start + INSERT_BATCH)
            .map(
              (row) =>
                sql`(${row.id}::int, ${row.saleId}::int, ${row.paymentId}::int, ${row.subscriberId}::int)`,
            ),
          sql`, `,
        );
        await db.execute(sql`update bank_statement_entries set status = 'matched', sale_id = m.sale_id,
            payment_id = m.payment_id, subscriber_id = m.subscriber_id
          from (values ${values}) as m(id, sale_id, payment_id, subscriber_id)
          where bank_statement_entries.id = m.id`);
      }
    },

    /** Records what entry `id` became. */
    decide: async (
      db: Executor,
      id: number,
      outcome: Partial<
        Pick<
          BankStatementEntryRow,
          | 'status'
          | 'saleId'
          | 'paymentId'
          | 'donationId'
          | 'subscriberId'
          | 'decidedBy'
          | 'decidedAt'
          | 'dismissReason'
        >
      >,
    ): Promise<void> => {
      await db.update(bankStatementEntries).set(outcome).where(eq(bankStatementEntries.id, id));
    },

    /** One page of the entries of `status`, oldest booking first, with the sale's reference, and their count. */
    list: async (db: Executor, query: StatementEntryListQuery) => {
      const where = eq(bankStatementEntries.status, query.status);
      const [total] = await db.select({ count: count() }).from(bankStatementEntries).where(where);
      const rows = await db
        .select({ entry: bankStatementEntries, saleRef: sales.ref })
        .from(bankStatementEntries)
        .leftJoin(sales, eq(sales.id, bankStatementEntries.saleId))
        .where(where)
        .orderBy(asc(bankStatementEntries.bookingDate), asc(bankStatementEntries.id))
        .limit(query.listlength)
        .offset(query.listfrom - 1);
      return { count: total?.count ?? 0, rows };
    },

    /** Entry `id` with its sale's reference. */
    find: async (db: Executor, id: number) => {
      const [row] = await db
        .select({ entry: bankStatementEntries, saleRef: sales.ref })
        .from(bankStatementEntries)
        .leftJoin(sales, eq(sales.id, bankStatementEntries.saleId))
        .where(eq(bankStatementEntries.id, id));
      return row;
    },
  };
}

export type BankStatementsRepository = ReturnType<typeof createBankStatementsRepository>;
