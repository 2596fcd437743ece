import { createHash } from 'node:crypto';
import type { ReceiptDocument, ReceiptLine } from './donations.table.ts';

/** The hash the first receipt of the register is chained to. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * What of a receipt its hash covers: everything it certified when issued. Not its donor (the record may
 * be merged into another or anonymised, docs/decisions/019 and 020) nor its cancellation, which is
 * recorded beside it.
 */
export type ChainedReceipt = {
  number: number;
  kind: 'single' | 'annual';
  year: number;
  /** `numeric` text, "25.00". */
  total: string;
  currencyId: number;
  issuedAt: Date;
  issuedBy: string;
  replacesNumber: number | null;
  lines: ReceiptLine[];
  document: ReceiptDocument;
};

/**
 * The SHA-256 (hex) of a receipt's canonical content, a JSON array in a fixed order, chained to the
 * previous receipt's hash: changing, removing or inserting any receipt changes every hash after it, so
 * `GET /api/receipts/verify` finds the first break (docs/decisions/023; the completeness and
 * inalterability expected of the receipts a tax inspector checks, CGI art. 1740 A). The document and
 * a converted gift's original amount, currency, rate and day are hashed too, appended so that a Cerfa
 * without conversion (all receipts issued before they existed) keeps the hash it was stamped with.
 */
export function receiptHash(previousHash: string, receipt: ChainedReceipt): string {
  const canonical = JSON.stringify([
    previousHash,
    receipt.number,
    receipt.kind,
    receipt.year,
    receipt.total,
    receipt.currencyId,
    receipt.issuedAt.toISOString(),
    receipt.issuedBy,
    receipt.replacesNumber,
    receipt.lines.map((line) =>
      line.original
        ? [
            line.donationId,
            line.date,
            line.amount,
            line.original.amount,
            line.original.currency,
            line.original.rate,
            line.original.rateDate,
          ]
        : [line.donationId, line.date, line.amount],
    ),
    ...(receipt.document === 'cerfa' ? [] : [receipt.document]),
  ]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
