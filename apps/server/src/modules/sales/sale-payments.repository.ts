import type { PaymentStatus } from '@back-office/contract/sales';
import { asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { salePayments, sales } from './sales.table.ts';

/**
 * The payment status of the sale of the row in scope (docs/decisions/032), as SQL over `sales`:
 * null while the invoice is not issued or once a credit note cancels it; `paid` when the payments
 * cover the total; `overdue` when the due date (the day of issue in `timeZone` plus the sale's
 * payment terms) is before `today` (`YYYY-MM-DD`); else `partiallyPaid` or `unpaid`. The credit-note
 * test names `"sales"."id"` in full: in a select from one table the ORM writes columns unqualified,
 * which inside the subquery would be the credit note's own id.
 */
export function paymentStatusSql(timeZone: string, today: string): SQL<PaymentStatus | null> {
  return sql<PaymentStatus | null>`(case
    when ${sales.invoiceIssuedAt} is null
      or exists (select 1 from credit_notes cn where cn.sale_id = "sales"."id") then null
    when ${sales.paidAmount} >= ${sales.total} then 'paid'
    when (${sales.invoiceIssuedAt} at time zone ${timeZone})::date + ${sales.paymentTermDays} < ${today}::date
      then 'overdue'
    when ${sales.paidAmount} > 0 then 'partiallyPaid'
    else 'unpaid' end)`;
}

/** A new payment of an invoice. */
export type NewSalePayment = {
  saleId: number;
  paidOn: string;
  amount: string;
  source: 'manual' | 'statement';
  entryRef?: string;
  recordedBy: string;
};

/** All SQL of invoice payments. Every function runs on the executor it is given. */
export function createSalePaymentsRepository() {
  return {
    /** The payments of sale `saleId`, oldest first (then in the order recorded). */
    list: (db: Executor, saleId: number) =>
      db
        .select()
        .from(salePayments)
        .where(eq(salePayments.saleId, saleId))
        .orderBy(asc(salePayments.paidOn), asc(salePayments.id)),

    /** The payment status of sale `saleId` by {@link paymentStatusSql}; null when unknown or not due. */
    statusOf: async (
      db: Executor,
      saleId: number,
      timeZone: string,
      today: string,
    ): Promise<PaymentStatus | null> => {
      const [row] = await db
        .select({ status: paymentStatusSql(timeZone, today) })
        .from(sales)
        .where(eq(sales.id, saleId));
      return row?.status ?? null;
    },

    /**
     * Records a payment and adds it to the sale's `paid_amount`, on the caller's transaction, which
     * holds the sale's row lock. @returns the payment's id.
     */
    insert: async (db: Executor, payment: NewSalePayment): Promise<number> => {
      const [row] = await db.insert(salePayments).values(payment).returning({ id: salePayments.id });
      if (!row) throw new Error('insert into sale_payments returned no row');
      await db
        .update(sales)
        .set({ paidAmount: sql`${sales.paidAmount} + ${payment.amount}::numeric` })
        .where(eq(sales.id, payment.saleId));
      return row.id;
    },
  };
}

export type SalePaymentsRepository = ReturnType<typeof createSalePaymentsRepository>;
