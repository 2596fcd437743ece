import type { PaymentStatus } from '@back-office/contract/sales';
import { asc, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { salePayments, sales } from './sales.table.ts';

/**
 * The payment status of the sale of the row in scope (docs/decisions/032), as SQL over `sales`:
 * null while the invoice is not issued or once a credit note cancels it; `paid` when the payments
 * cover the total; `overdue` when the due date (the invoice's date, the day of the sale in
 * `timeZone`, plus the sale's payment terms, as the invoice prints it) is before `today` (`YYYY-MM-DD`); else `partiallyPaid` or `unpaid`. The credit-note
 * test names `"sales"."id"` in full: in a select from one table the ORM writes columns unqualified,
 * which inside the subquery would be the credit note's own id.
 */
export function paymentStatusSql(
  timeZone: string | Placeholder,
  today: string | Placeholder,
): SQL<PaymentStatus | null> {
  return sql<PaymentStatus | null>`(case
    when ${sales.invoiceIssuedAt} is null
      or exists (select 1 from credit_notes cn where cn.sale_id = "sales"."id") then null
    when ${sales.paidAmount} >= ${sales.total} then 'paid'
    when (${sales.addedOn} at time zone ${timeZone})::date + ${sales.paymentTermDays} < ${today}::date
      then 'overdue'
    when ${sales.paidAmount} > 0 then 'partiallyPaid'
    else 'unpaid' end)`;
}

/** Rows written by one statement (at most 7 parameters each; a statement takes 65,535). */
const BATCH = 2000;

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
     * Records payments and adds each to its sale's `paid_amount`, a few statements in all, on the
     * caller's transaction, which holds the sales' row locks. @returns the payments' ids, in order.
     */
    insertMany: async (db: Executor, payments: NewSalePayment[]): Promise<number[]> => {
      const ids: number[] = [];
      for (let start = 0; start < payments.length; start += BATCH) {
        const rows = await db
          .insert(salePayments)
          .values(payments.slice(start, start + BATCH))
          .returning({ id: salePayments.id });
        ids.push(...rows.map((row) => row.id));
      }
      if (ids.length !== payments.length) throw new Error('insert into sale_payments lost rows');
      const bySale = new Map<number, number>();
      for (const payment of payments) {
        bySale.set(
          payment.saleId,
          (bySale.get(payment.saleId) ?? 0) + Math.round(Number(payment.amount) * 100),
        );
      }
      const raises = [...bySale];
      for (let start = 0; start < raises.length; start += BATCH) {
        const values = sql.join(
          raises
            .slice(start, start + BATCH)
            .map(([saleId, cents]) => sql`(${saleId}::int, ${cents}::bigint)`),
          sql`, `,
        );
        await db.execute(sql`update sales set paid_amount = sales.paid_amount + raise.cents / 100.0
          from (values ${values}) as raise(sale_id, cents) where sales.id = raise.sale_id`);
      }
      return ids;
    },
  };
}

export type SalePaymentsRepository = ReturnType<typeof createSalePaymentsRepository>;
