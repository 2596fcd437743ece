import { and, asc, eq, gt, gte, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { keysetRows } from '../../lib/keyset-rows.ts';
import { currencies } from '../reference-lists/reference-lists.table.ts';
import { receipts } from './donations.table.ts';

/** Receipts read per statement. */
const STATEMENT_BATCH = 1000;

/**
 * A receipt as the annual statement counts it: its number, kind, when it was issued, its total
 * (`numeric` text, "40.00", in units of its currency) and that currency's ISO 4217 code (null when
 * the currency has none) and name.
 */
export type StatementReceipt = {
  number: number;
  kind: 'single' | 'annual';
  issuedAt: Date;
  total: string;
  currencyIsoCode: string | null;
  currencyName: string;
};

/** The SQL of the annual statement of receipts (CGI art. 222 bis). */
export function createReceiptStatementRepository() {
  return {
    /**
     * Every Cerfa receipt issued from `start` (included) to `end` (excluded) and not cancelled, by
     * number, read in batches: what the statement of CGI art. 222 bis declares. The Swiss attestations
     * are not declared in France; a cancelled receipt's replacement is an issued receipt of its own.
     */
    issuedCerfas: (db: Executor, { start, end }: { start: Date; end: Date }) =>
      keysetRows<StatementReceipt, number>(
        STATEMENT_BATCH,
        (after) =>
          db
            .select({
              number: receipts.number,
              kind: receipts.kind,
              issuedAt: receipts.issuedAt,
              total: receipts.total,
              currencyIsoCode: currencies.isoCode,
              currencyName: currencies.name,
            })
            .from(receipts)
            .innerJoin(currencies, eq(currencies.id, receipts.currencyId))
            .where(
              and(
                eq(receipts.document, 'cerfa'),
                eq(receipts.status, 'issued'),
                gte(receipts.issuedAt, start),
                lt(receipts.issuedAt, end),
                after === undefined ? undefined : gt(receipts.number, after),
              ),
            )
            .orderBy(asc(receipts.number))
            .limit(STATEMENT_BATCH),
        (receipt) => receipt.number,
      ),
  };
}

export type ReceiptStatementRepository = ReturnType<typeof createReceiptStatementRepository>;
