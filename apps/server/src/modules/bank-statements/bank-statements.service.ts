import type {
  AssignStatementEntry,
  BankStatementEntry,
  StatementEntryList,
  StatementEntryListQuery,
  StatementImport,
} from '@back-office/contract/bank-statements';
import { sql } from 'drizzle-orm';
import { type Database, type Executor, queryRows } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { centsToNumeric } from '../../lib/money.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { DonationWrites } from '../donations/donations.service.ts';
import type { SalesService } from '../sales/sales.service.ts';
import {
  createStatementEntryAssignError,
  createStatementEntryDecidedError,
  createStatementEntryNotFoundError,
} from './bank-statements.errors.ts';
import type {
  BankStatementsRepository,
  NewStatementEntry,
  OpenInvoice,
} from './bank-statements.repository.ts';
import type { BankStatementEntryRow } from './bank-statements.table.ts';
import { readStatementFiles, type StatementEntry } from './camt.ts';

/**
 * Invoice numbers quoted in a transfer's free text: "Facture 123", "facture n° 123", "Fact. 123",
 * "Invoice #123", "Rechnung Nr. 123", "vente 123".
 */
const INVOICE_NUMBER =
  /\b(?:factures?|fact\.?|invoices?|inv\.?|rechnung|vente|sale)\s*(?:n[°o]\.?|no\.?|nr\.?|num(?:[ée]ro)?\.?)?\s*[:#]?\s*(\d{1,9})\b/giu;

/** A payment reference typed into the free text instead of the structured field. */
const TYPED_REFERENCE = /RF\d{2}[0-9A-Z]{1,21}|\b\d{27}\b/g;

/** The invoice numbers (sale references) a text quotes, in order. */
export function invoiceNumbersIn(text: string): number[] {
  return [...text.matchAll(INVOICE_NUMBER)].map((match) => Number(match[1]));
}

/** The payment references a text quotes (spaces inside them ignored), in order. */
function referencesIn(text: string): string[] {
  return [...text.toUpperCase().replace(/\s+/g, '').matchAll(TYPED_REFERENCE)].map((match) => match[0]);
}

const isMatchable = (entry: Pick<StatementEntry, 'direction' | 'isReturn' | 'reversal'>) =>
  entry.direction === 'credit' && !entry.isReturn && !entry.reversal;

function toView(row: BankStatementEntryRow, saleRef: number | null): BankStatementEntry {
  return {
    id: row.id,
    entryRef: row.entryRef,
    bookingDate: row.bookingDate,
    amount: Number(row.amount),
    currency: row.currency,
    direction: row.direction,
    ...(row.debtorName ? { debtorName: row.debtorName } : {}),
    ...(row.debtorIban ? { debtorIban: row.debtorIban } : {}),
    ...(row.reference ? { reference: row.reference } : {}),
    text: row.text,
    status: row.status,
    ...(row.saleId !== null ? { saleId: row.saleId } : {}),
    ...(saleRef !== null ? { saleRef } : {}),
    ...(row.donationId !== null ? { donationId: row.donationId } : {}),
    ...(row.subscriberId !== null ? { subscriberId: row.subscriberId } : {}),
    ...(row.decidedBy ? { decidedBy: row.decidedBy } : {}),
    ...(row.decidedAt ? { decidedAt: row.decidedAt.toISOString() } : {}),
    ...(row.dismissReason ? { dismissReason: row.dismissReason } : {}),
  };
}

/**
 * Bank statements (contract `bank-statements`, docs/decisions/033; ISO 20022 camt.053 and camt.054):
 * the import that matches credits to the invoices they pay, and the review queue of the others.
 * Amounts are units of the entry's currency; dates `YYYY-MM-DD`.
 */
export function createBankStatementsService({
  db,
  repository,
  recordPaymentOn,
  recordPaymentsOn,
  donationWrites,
  clock,
}: {
  db: Database;
  repository: BankStatementsRepository;
  recordPaymentOn: SalesService['recordPaymentOn'];
  recordPaymentsOn: SalesService['recordPaymentsOn'];
  donationWrites: Pick<DonationWrites, 'addOn'>;
  clock: Clock;
}) {
  /**
   * The open invoice `entry` pays, in this order (docs/decisions/033): its structured reference (or a
   * reference typed in its text) is an invoice's payment reference; its text quotes an invoice number;
   * its debtor's IBAN is a subscriber's, with exactly one open invoice of exactly its amount. Only an
   * invoice in the entry's currency with at least its amount left to pay qualifies.
   */
  function invoiceFor(
    entry: BankStatementEntryRow,
    candidates: {
      byReference: Map<string, OpenInvoice>;
      bySaleRef: Map<number, OpenInvoice>;
      ownerOfIban: Map<string, number>;
      bySubscriber: Map<number, OpenInvoice[]>;
    },
  ): OpenInvoice | undefined {
    const cents = Math.round(Number(entry.amount) * 100);
    const fits = (invoice: OpenInvoice | undefined) =>
      invoice !== undefined && invoice.currency === entry.currency && invoice.remainingCents >= cents;
    const references = [...(entry.reference ? [entry.reference] : []), ...referencesIn(entry.text)];
    for (const reference of references) {
      const invoice = candidates.byReference.get(reference);
      if (fits(invoice)) return invoice;
    }
    for (const ref of invoiceNumbersIn(entry.text)) {
      const invoice = candidates.bySaleRef.get(ref);
      if (fits(invoice)) return invoice;
    }
    const owner = entry.debtorIban ? candidates.ownerOfIban.get(entry.debtorIban) : undefined;
    if (owner === undefined) return undefined;
    const exact = (candidates.bySubscriber.get(owner) ?? []).filter(
      (invoice) => invoice.currency === entry.currency && invoice.remainingCents === cents,
    );
    return exact.length === 1 ? exact[0] : undefined;
  }

  async function candidatesFor(tx: Executor, credits: BankStatementEntryRow[]) {
    const references = [
      ...new Set(
        credits.flatMap((entry) => [
          ...(entry.reference ? [entry.reference] : []),
          ...referencesIn(entry.text),
        ]),
      ),
    ];
    const saleRefs = [...new Set(credits.flatMap((entry) => invoiceNumbersIn(entry.text)))];
    const ibans = [...new Set(credits.flatMap((entry) => (entry.debtorIban ? [entry.debtorIban] : [])))];
    // One object per invoice, whichever query found it: a payment matched lowers what all maps see.
    const byId = new Map<number, OpenInvoice>();
    const shared = (invoices: OpenInvoice[]) =>
      invoices.map((invoice) => {
        const known = byId.get(invoice.id);
        if (known) return known;
        byId.set(invoice.id, invoice);
        return invoice;
      });
    const byReference = new Map(
      shared(await repository.openInvoicesByPaymentReference(tx, references)).map((invoice) => [
        invoice.paymentReference ?? '',
        invoice,
      ]),
    );
    const bySaleRef = new Map(
      shared(await repository.openInvoicesBySaleRef(tx, saleRefs)).map((invoice) => [invoice.ref, invoice]),
    );
    const ownerOfIban = await repository.ownersOfIbans(tx, ibans);
    const owners = [...new Set(ownerOfIban.values())];
    const bySubscriber = new Map<number, OpenInvoice[]>();
    for (const invoice of shared(await repository.openInvoicesOfSubscribers(tx, owners))) {
      bySubscriber.set(invoice.subscriberId, [...(bySubscriber.get(invoice.subscriberId) ?? []), invoice]);
    }
    return { byReference, bySaleRef, ownerOfIban, bySubscriber };
  }

  return {
    /**
     * `POST /api/bank-statements`: reads a camt.053 or camt.054 file, or a ZIP of them, and in one
     * transaction stores each booked entry whose bank reference is new (a file imported twice adds
     * nothing), lists debits, returns and reversals, and records each credit that pays an open invoice
     * (see `invoiceFor`) as its payment ("from a bank statement" in the buyer's history); the other
     * credits wait in the review queue. An invoice paid by one entry counts as paid that much for the
     * next ones of the same import.
     * @throws 400 `bank_statements.invalid_file` for a file that is not such a statement.
     */
    importFile: async (
      bytes: Uint8Array,
      fileName: string | undefined,
      user: AuthUser,
    ): Promise<StatementImport> => {
      const read = await readStatementFiles(bytes, fileName);
      const now = clock.now();
      const rows: NewStatementEntry[] = read.map((entry) => ({
        entryRef: entry.entryRef,
        accountIban: entry.accountIban ?? null,
        bookingDate: entry.bookingDate,
        valueDate: entry.valueDate ?? null,
        amount: centsToNumeric(entry.amountCents),
        currency: entry.currency,
        direction: entry.direction,
        isReturn: entry.isReturn,
        reversal: entry.reversal,
        debtorName: entry.debtorName ?? null,
        debtorIban: entry.debtorIban ?? null,
        reference: entry.reference?.value ?? null,
        text: entry.text,
        endToEndId: entry.endToEndId ?? null,
        status: isMatchable(entry) ? 'unmatched' : 'listed',
        importedBy: user.fullName,
        importedAt: now,
      }));
      return db.transaction(async (tx) => {
        const inserted = await repository.insertNew(tx, rows);
        const credits = inserted.filter((entry) => entry.status === 'unmatched');
        const candidates = await candidatesFor(tx, credits);
        const matches: Array<{ entry: BankStatementEntryRow; invoice: OpenInvoice }> = [];
        for (const entry of credits) {
          const invoice = invoiceFor(entry, candidates);
          if (!invoice) continue;
          // Paid that much for the next entries of this import (the maps share the invoice).
          invoice.remainingCents -= Math.round(Number(entry.amount) * 100);
          matches.push({ entry, invoice });
        }
        const results = await recordPaymentsOn(
          tx,
          matches.map(({ entry, invoice }) => ({
            saleId: invoice.id,
            date: entry.bookingDate,
            amount: Number(entry.amount),
            source: 'statement' as const,
            entryRef: entry.entryRef,
          })),
          user,
        );
        // A payment refused (e.g. booked after today) leaves its entry in the review queue.
        const recorded = matches.flatMap(({ entry, invoice }, index) => {
          const paymentId = results[index];
          return typeof paymentId === 'number'
            ? [{ id: entry.id, saleId: invoice.id, paymentId, subscriberId: invoice.subscriberId }]
            : [];
        });
        await repository.markMatched(tx, recorded);
        const matched = recorded.length;
        return {
          entries: read.length,
          matched,
          unmatched: credits.length - matched,
          duplicates: read.length - inserted.length,
          listed: inserted.length - credits.length,
        };
      });
    },

    /** `GET /api/bank-statements/entries`: one page of the entries of a status, oldest booking first. */
    list: async (query: StatementEntryListQuery): Promise<StatementEntryList> => {
      const { count, rows } = await repository.list(db, query);
      return { count, models: rows.map((row) => toView(row.entry, row.saleRef)) };
    },

    /**
     * `POST /api/bank-statements/entries/{id}/assign`: an unmatched credit becomes a payment of a
     * sale's invoice, or a donation (of the subscriber given, else of the one whose IBAN is the
     * debtor's, in the entry's currency, dated its booking day), or is dismissed with a reason; who
     * and when are kept on the entry, and the donor's or buyer's history says what was recorded.
     * @throws 404 `bank_statements.not_found`; 409 `bank_statements.decided` for an entry already
     *   decided or not a credit; 409 `bank_statements.cannot_assign` naming `saleId` (another
     *   currency), `subscriberId` (no donor found) or `currency` (not in the list); the errors of a
     *   payment (`sales.invalid` naming `amount` when more than remains to pay, 404, 409).
     */
    assign: (id: number, decision: AssignStatementEntry, user: AuthUser): Promise<BankStatementEntry> =>
      db.transaction(async (tx) => {
        const entry = await repository.lock(tx, id);
        if (!entry) throw createStatementEntryNotFoundError(`No statement entry has id ${id}.`);
        if (entry.status !== 'unmatched') {
          throw createStatementEntryDecidedError(`The entry ${entry.entryRef} is ${entry.status} already.`);
        }
        const decided = { decidedBy: user.fullName, decidedAt: clock.now() };
        if ('dismiss' in decision) {
          await repository.decide(tx, id, {
            status: 'dismissed',
            dismissReason: decision.dismiss,
            ...decided,
          });
        } else if (decision.as === 'payment') {
          const [sale] = await queryRows<{ currency: string | null; subscriberId: number }>(
            tx,
            sql`select c.iso_code as currency, s.subscriber_id as "subscriberId"
              from sales s join currencies c on c.id = s.currency_id where s.id = ${decision.saleId}`,
          );
          if (sale && sale.currency !== entry.currency) {
            const message = `This entry is in ${entry.currency}; the sale is in ${sale.currency ?? 'another currency'}.`;
            throw createStatementEntryAssignError(message, [{ path: 'saleId', message }]);
          }
          const paymentId = await recordPaymentOn(
            tx,
            decision.saleId,
            {
              date: entry.bookingDate,
              amount: Number(entry.amount),
              source: 'statement',
              entryRef: entry.entryRef,
            },
            user,
          );
          await repository.decide(tx, id, {
            status: 'assigned',
            saleId: decision.saleId,
            paymentId,
            subscriberId: sale?.subscriberId ?? null,
            ...decided,
          });
        } else {
          const owners = entry.debtorIban
            ? await repository.ownersOfIbans(tx, [entry.debtorIban])
            : new Map();
          const subscriberId =
            decision.subscriberId ?? (entry.debtorIban ? owners.get(entry.debtorIban) : undefined);
          const [donor] =
            subscriberId === undefined
              ? []
              : await queryRows<{ id: number }>(
                  tx,
                  sql`select id from subscribers where id = ${subscriberId} and not hidden`,
                );
          if (!donor) {
            const message =
              subscriberId === undefined
                ? 'No subscriber has this IBAN: choose the donor.'
                : `No subscriber has id ${subscriberId}.`;
            throw createStatementEntryAssignError(message, [{ path: 'subscriberId', message }]);
          }
          const [currency] = await queryRows<{ id: number; symbol: string }>(
            tx,
            sql`select id, symbol from currencies where iso_code = ${entry.currency}`,
          );
          if (!currency) {
            const message = `Add the currency whose ISO code is ${entry.currency} to the currencies.`;
            throw createStatementEntryAssignError(message, [{ path: 'currency', message }]);
          }
          const notes = ['Virement', entry.debtorName, entry.text].filter(Boolean).join(' ').slice(0, 2000);
          const donationId = await donationWrites.addOn(
            tx,
            {
              subscriberId: donor.id,
              amount: entry.amount,
              currencyId: currency.id,
              currencySymbol: currency.symbol,
              donationDate: entry.bookingDate,
              notes,
            },
            user,
          );
          await repository.decide(tx, id, {
            status: 'assigned',
            donationId,
            subscriberId: donor.id,
            ...decided,
          });
        }
        const found = await repository.find(tx, id);
        if (!found) throw createStatementEntryNotFoundError(`No statement entry has id ${id}.`);
        return toView(found.entry, found.saleRef);
      }),
  };
}

export type BankStatementsService = ReturnType<typeof createBankStatementsService>;
