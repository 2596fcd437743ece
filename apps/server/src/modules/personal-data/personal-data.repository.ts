import { DOCUMENT_RETENTION_YEARS } from '@back-office/contract/personal-data';
import { asc, eq, isNotNull, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import { donations, receipts } from '../donations/donations.table.ts';
import { currencies } from '../reference-lists/reference-lists.table.ts';
import { organisationSettings } from '../settings/settings.table.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';

/**
 * Reads of personal-data rights that no other module offers (docs/decisions/019): a donor's gifts
 * with their currency and receipt number, deleted donors too; whether anyone was anonymised; the
 * retention period. It writes nothing.
 */
export function createPersonalDataRepository() {
  return {
    /**
     * Forgets what imports and merges kept of the subscriber so that they could be undone: the cells of
     * the import rows that created or merged into them and the record as it was before; the cells of the
     * rows that imported their donations and sales (every line of such a sale), or matched them as
     * duplicates; and their merges (an undo after an anonymisation would bring the identity back;
     * docs/decisions/019). Rows that named them but matched nothing go when their import expires.
     */
    forgetImportsAndMerges: async (db: Executor, subscriberId: number) => {
      await db.execute(sql`update import_rows set cells = '[]'::jsonb, before = null
        where (record_id = ${subscriberId} or match_id = ${subscriberId})
          and import_id in (select id from imports where kind = 'subscribers')`);
      await db.execute(sql`update import_rows set cells = '[]'::jsonb
        where import_id in (select id from imports where kind = 'donations')
          and (match_id = ${subscriberId}
               or record_id in (select id from donations where subscriber_id = ${subscriberId}))`);
      // A sale's lines follow its first row in the file under the same number (the column of `ref`).
      await db.execute(sql`update import_rows r set cells = '[]'::jsonb
        from import_rows first join imports i on i.id = first.import_id
        where i.kind = 'sales' and r.import_id = first.import_id
          and (first.record_id in (select id from sales where subscriber_id = ${subscriberId})
               or first.match_id in (select id from sales where subscriber_id = ${subscriberId}))
          and (r.row_number = first.row_number
               or (i.mapping->>'ref' is not null
                   and r.cells->>((i.mapping->>'ref')::int) = first.cells->>((i.mapping->>'ref')::int)))`);
      await db.execute(
        sql`delete from subscriber_merges where keep_id = ${subscriberId} or merge_id = ${subscriberId}`,
      );
    },

    /**
     * Erases the account data of the subscriber's SEPA mandates (IBAN, BIC, the IBAN before an
     * amendment) and revokes those still active, as of `today` (`YYYY-MM-DD`): the reference (RUM),
     * the signature date and the collections made stay, as the money facts do (docs/decisions/019, 027).
     */
    forgetMandates: async (db: Executor, subscriberId: number, today: string) => {
      await db.execute(sql`update mandates set iban = '', bic = null, original_iban = null,
          status = case when status = 'active' then 'revoked' else status end,
          revoked_on = case when status = 'active' then ${today}::date else revoked_on end,
          revoked_reason = case when status = 'active' then 'Subscriber anonymised' else revoked_reason end
        where subscriber_id = ${subscriberId}`);
    },

    /**
     * Erases the payer's name, IBAN and remittance text of the bank statement entries that are the
     * subscriber's: assigned or matched to them, or from an account of theirs (their record's IBAN or a
     * mandate's). Run before those IBANs are erased. The amounts, days and what each entry became stay
     * (docs/decisions/019, 033).
     */
    forgetStatementEntries: async (db: Executor, subscriberId: number) => {
      await db.execute(sql`update bank_statement_entries set debtor_name = null, debtor_iban = null, text = ''
        where subscriber_id = ${subscriberId}
          or debtor_iban in (
            select upper(replace(iban, ' ', '')) from subscribers where id = ${subscriberId} and iban <> ''
            union select iban from mandates where subscriber_id = ${subscriberId} and iban <> '')`);
    },

    /** The bank statement entries assigned or matched to the subscriber, oldest first (the archive). */
    listStatementEntries: (db: Executor, subscriberId: number) =>
      queryRows<{
        bookingDate: string;
        amount: string;
        currency: string;
        debtorName: string | null;
        debtorIban: string | null;
        reference: string | null;
        text: string;
        status: string;
      }>(
        db,
        sql`select booking_date::text as "bookingDate", amount::text as amount, currency,
                   debtor_name as "debtorName", debtor_iban as "debtorIban", reference, text, status
              from bank_statement_entries where subscriber_id = ${subscriberId} order by booking_date, id`,
      ),

    /** The subscriber's SEPA mandates, oldest signature first (the personal-data archive). */
    listMandates: (db: Executor, subscriberId: number) =>
      queryRows<{
        rum: string;
        iban: string;
        bic: string | null;
        signedOn: string;
        type: string;
        status: string;
        lastCollectedOn: string | null;
        revokedOn: string | null;
        revokedReason: string | null;
      }>(
        db,
        sql`select rum, iban, bic, signed_on::text as "signedOn", type, status,
                   last_collected_on::text as "lastCollectedOn", revoked_on::text as "revokedOn",
                   revoked_reason as "revokedReason"
              from mandates where subscriber_id = ${subscriberId} order by signed_on, id`,
      ),

    /** Whether any subscriber was anonymised: one probe of a small partial index (the idle purge asks often). */
    anyAnonymised: async (db: Executor) => {
      const rows = await db
        .select({ id: subscribers.id })
        .from(subscribers)
        .where(isNotNull(subscribers.anonymisedAt))
        .limit(1);
      return rows.length > 0;
    },

    /** The settings' `documentRetentionYears`, read without creating the settings row. */
    retentionYears: async (db: Executor) => {
      const [row] = await db
        .select({ years: organisationSettings.documentRetentionYears })
        .from(organisationSettings)
        .limit(1);
      return row?.years ?? DOCUMENT_RETENTION_YEARS.default;
    },

    /** The subscriber's donations, oldest first. */
    listDonations: (db: Executor, subscriberId: number) =>
      db
        .select({
          id: donations.id,
          amount: donations.amount,
          currencyName: currencies.name,
          currencySymbol: currencies.symbol,
          donationDate: donations.donationDate,
          notes: donations.notes,
          addedBy: donations.addedBy,
          addedOn: donations.addedOn,
          receiptNumber: receipts.number,
        })
        .from(donations)
        .innerJoin(currencies, eq(currencies.id, donations.currencyId))
        .leftJoin(receipts, eq(receipts.id, donations.receiptId))
        .where(eq(donations.subscriberId, subscriberId))
        .orderBy(asc(donations.donationDate), asc(donations.id)),
  };
}

export type PersonalDataRepository = ReturnType<typeof createPersonalDataRepository>;
