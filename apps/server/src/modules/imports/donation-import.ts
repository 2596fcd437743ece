import { createDonationInputSchema, FIRST_DONATION_DATE } from '@back-office/contract/donations';
import type { ImportMapping, ImportOptions, ImportRowError } from '@back-office/contract/imports';
import { sql } from 'drizzle-orm';
import { anyOf, type Executor, queryRows, type Transaction } from '../../db/client.ts';
import { formatAmount } from '../../lib/money.ts';
import { foldForSearch } from '../../lib/search-text.ts';
import { donations } from '../donations/donations.table.ts';
import { subscriberHistory } from '../subscribers/subscribers.table.ts';
import type { CheckedRow, CommittedRow } from './imports.repository.ts';
import type { ImportRow, importRows } from './imports.table.ts';
import { namedFew, type RowImportContext, type RowImporter, splitSkipped } from './row-importer.ts';
import { type ReferenceLookup, readDate, readNumber } from './subscriber-import.ts';

/** Why a donation row is a duplicate: a gift of the same donor, day and amount is in the register. */
export const SAME_DONATION = 'same donor, date and amount';

/**
 * How a row names its donor (or buyer): this register's id, an email, a first name, last name and
 * postcode, or a full name ("First Last", "Last First" or "Title First Last") and postcode; all folded.
 */
export type DonorKey =
  | { by: 'id'; id: number }
  | { by: 'email'; email: string }
  | { by: 'name'; last: string; first: string; postcode: string }
  | { by: 'fullName'; name: string; postcode: string };

/** One donation row read: its mapped cells, the gift, how its donor is named, and the problems per field. */
export type ReadDonationRow = {
  values: Record<string, string>;
  gift: { amount: number; donationDate: string; notes: string; currencyId: number | null } | undefined;
  donor: DonorKey | undefined;
  errors: Array<{ field: string; message: string }>;
};

/** A donor found: their id, currency and its symbol. */
export type Donor = { id: number; currencyId: number; symbol: string };

const cellOf = (cells: readonly string[], mapping: ImportMapping, field: string) => {
  const column = mapping[field];
  return column === null || column === undefined ? '' : (cells[column] ?? '');
};

/**
 * Reads one data row of a donation import into a gift as `POST /api/donations` takes it (part 2 §3,
 * validated by the same schema; not after `today`, `YYYY-MM-DD` in the organisation's zone) and the key
 * its donor is found by.
 */
export function readDonationRow(
  cells: readonly string[],
  mapping: ImportMapping,
  options: ImportOptions,
  lookup: ReferenceLookup,
  today: string,
): ReadDonationRow {
  const values: Record<string, string> = {};
  for (const field of Object.keys(mapping)) {
    if (mapping[field] !== null && mapping[field] !== undefined)
      values[field] = cellOf(cells, mapping, field);
  }
  const errors: ReadDonationRow['errors'] = [];
  const idCell = values.subscriberId ?? '';
  let donor: DonorKey | undefined;
  if (idCell !== '') {
    const id = Number(idCell);
    if (Number.isInteger(id) && id > 0 && id <= 2_147_483_647) donor = { by: 'id', id };
    else errors.push({ field: 'subscriberId', message: 'Write a subscriber id (a whole number).' });
  } else if ((values.email ?? '') !== '') {
    donor = { by: 'email', email: (values.email ?? '').toLowerCase() };
  } else if ((values.lastName ?? '') !== '' && (values.postcode ?? '') !== '') {
    donor = {
      by: 'name',
      last: foldForSearch(values.lastName ?? ''),
      first: foldForSearch(values.firstName ?? ''),
      postcode: foldForSearch(values.postcode ?? ''),
    };
  } else {
    errors.push({
      field: 'email',
      message: 'Name the donor: a subscriber id, an email, or a last name and postcode.',
    });
  }

  const amountCell = values.amount ?? '';
  const amount = amountCell === '' ? Number.NaN : readNumber(amountCell, options.decimalSeparator);
  if (amountCell !== '' && Number.isNaN(amount)) errors.push({ field: 'amount', message: 'Write a number.' });
  const dateCell = values.donationDate ?? '';
  const donationDate = dateCell === '' ? undefined : readDate(dateCell, options.dateFormat);
  if (dateCell !== '' && donationDate === undefined) {
    errors.push({ field: 'donationDate', message: `Dates are written ${options.dateFormat}.` });
  } else if (donationDate && donationDate > today) {
    errors.push({ field: 'donationDate', message: 'The donation date cannot be in the future.' });
  }
  let currencyId: number | null = null;
  if ((values.currency ?? '') !== '') {
    const found = lookup.currency.get(foldForSearch(values.currency ?? ''));
    if (found === undefined)
      errors.push({ field: 'currency', message: `No currency is named "${values.currency}".` });
    else currencyId = found;
  }
  const parsed = createDonationInputSchema.safeParse({
    subid: 1,
    amount: Number.isNaN(amount) ? undefined : amount,
    donationDate: donationDate ?? (dateCell === '' ? undefined : FIRST_DONATION_DATE),
    notes: values.notes ?? '',
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      if (!errors.some((error) => error.field === field)) errors.push({ field, message: issue.message });
    }
  }
  const gift =
    errors.length === 0 && parsed.success && donationDate
      ? { amount: parsed.data.amount, donationDate, notes: parsed.data.notes, currencyId }
      : undefined;
  return { values, gift, donor, errors };
}

/** A full name folded as {@link DonorKey} `fullName` compares it: folded, single spaces. */
export const fullNameKey = (value: string) => foldForSearch(value).replace(/\s+/g, ' ');

/**
 * The donors of a batch's keys: visible subscribers by id, by email (lowercased), by folded last name,
 * first name and postcode, and by folded full name and postcode, each key with every subscriber it
 * names (more than one is ambiguous).
 */
export async function findDonors(db: Executor, keys: DonorKey[]) {
  const ids = keys.flatMap((key) => (key.by === 'id' ? [key.id] : []));
  const emails = keys.flatMap((key) => (key.by === 'email' ? [key.email] : []));
  const names = keys.flatMap((key) => (key.by === 'name' ? [key] : []));
  const fullNames = keys.flatMap((key) => (key.by === 'fullName' ? [key] : []));
  const found = await queryRows<
    Donor & { email: string; last: string; first: string; postcode: string; title: string }
  >(
    db,
    sql`select s.id, s.currency_id as "currencyId", c.symbol, lower(s.email) as email,
               s.search_last_name as last, s.search_first_name as first, s.search_postcode as postcode,
               s.title
        from subscribers s join currencies c on c.id = s.currency_id
        where not s.hidden and (
          s.id = ${anyOf(ids, 'int')}
          or (s.email <> '' and lower(s.email) = ${anyOf(emails, 'text')})
          or exists (select 1 from jsonb_to_recordset(${JSON.stringify(names)}::jsonb) as x(last text, first text, postcode text)
                     where s.search_last_name = x.last collate "C" and s.search_first_name = x.first collate "C"
                       and s.search_postcode = x.postcode collate "C")
          or exists (select 1 from jsonb_to_recordset(${JSON.stringify(fullNames)}::jsonb) as x(name text, postcode text)
                     where s.search_postcode = x.postcode collate "C"
                       and x.name collate "C" in (
                         trim(regexp_replace(s.search_first_name || ' ' || s.search_last_name, '[[:space:]]+', ' ', 'g')),
                         trim(regexp_replace(s.search_last_name || ' ' || s.search_first_name, '[[:space:]]+', ' ', 'g')),
                         trim(regexp_replace(fold_text(s.title) || ' ' || s.search_first_name || ' ' || s.search_last_name, '[[:space:]]+', ' ', 'g')))))`,
  );
  return (key: DonorKey): Donor[] =>
    found.filter((donor) => {
      if (key.by === 'id') return donor.id === key.id;
      if (key.by === 'email') return donor.email === key.email;
      if (key.by === 'name')
        return donor.last === key.last && donor.first === key.first && donor.postcode === key.postcode;
      if (donor.postcode !== key.postcode) return false;
      const first = donor.first;
      const last = donor.last;
      return [`${first} ${last}`, `${last} ${first}`, `${donor.title} ${first} ${last}`].some(
        (candidate) => fullNameKey(candidate) === key.name,
      );
    });
}

/** The donor a row names, or the error that says why none is found (or several). */
function resolveDonor(read: ReadDonationRow, donorsOf: (key: DonorKey) => Donor[]) {
  const found = resolveKey(read.donor, donorsOf);
  if (!('donor' in found) || !found.donor) return found;
  const donor = found.donor;
  if (
    read.gift?.currencyId !== null &&
    read.gift?.currencyId !== undefined &&
    read.gift.currencyId !== donor.currencyId
  ) {
    return {
      error: {
        field: 'currency',
        message: `The donor gives in ${donor.symbol}: a gift is recorded in the donor's currency.`,
      },
    };
  }
  return { donor };
}

/** The field a donor key was read from, which an error about it names. */
const keyField = (key: DonorKey) =>
  key.by === 'id'
    ? 'subscriberId'
    : key.by === 'email'
      ? 'email'
      : key.by === 'name'
        ? 'lastName'
        : 'fullName';

/** The one subscriber a key names, or the error that says why none is found (or several). */
export function resolveKey(
  key: DonorKey | undefined,
  donorsOf: (key: DonorKey) => Donor[],
): { donor?: Donor; error?: { field: string; message: string } } {
  if (!key) return {};
  const matches = donorsOf(key);
  const field = keyField(key);
  if (matches.length === 0)
    return { error: { field, message: 'No subscriber of the register matches this donor.' } };
  if (matches.length > 1) {
    return {
      error: {
        field,
        message: `${matches.length} subscribers match this donor: name them by subscriber id.`,
      },
    };
  }
  return { donor: matches[0] };
}

type StoredRow = typeof importRows.$inferSelect;

/**
 * Checks one batch of a donation import: each row read, its donor found, and a gift of the same donor,
 * day and amount already in the register marked as a duplicate (`matchId`: the donor).
 */
export async function checkDonationRows(
  db: Executor,
  row: ImportRow,
  batch: StoredRow[],
  lookup: ReferenceLookup,
  today: string,
): Promise<CheckedRow[]> {
  const read = batch.map((stored) => ({
    rowNumber: stored.rowNumber,
    ...readDonationRow(stored.cells, row.mapping, row.options, lookup, today),
  }));
  const donorsOf = await findDonors(
    db,
    read.flatMap((entry) => (entry.donor ? [entry.donor] : [])),
  );
  const resolved = read.map((entry) => ({ entry, ...resolveDonor(entry, donorsOf) }));
  const gifts = resolved.flatMap(({ entry, donor }) =>
    entry.gift && donor
      ? [
          {
            subscriber_id: donor.id,
            donation_date: entry.gift.donationDate,
            amount: entry.gift.amount.toFixed(2),
          },
        ]
      : [],
  );
  const existing = new Set(
    gifts.length === 0
      ? []
      : (
          await queryRows<{ key: string }>(
            db,
            sql`select distinct d.subscriber_id || '|' || d.donation_date || '|' || d.amount as key
                from donations d
                join jsonb_to_recordset(${JSON.stringify(gifts)}::jsonb) as x(subscriber_id int, donation_date date, amount numeric)
                  on d.subscriber_id = x.subscriber_id and d.donation_date = x.donation_date and d.amount = x.amount`,
          )
        ).map((found) => found.key),
  );
  return resolved.map(({ entry, donor, error }) => {
    const errors = error ? [...entry.errors, error] : entry.errors;
    if (!entry.gift || !donor || errors.length > 0) {
      return { rowNumber: entry.rowNumber, status: 'invalid', errors, matchId: null, matchReasons: [] };
    }
    const key = `${donor.id}|${entry.gift.donationDate}|${entry.gift.amount.toFixed(2)}`;
    if (existing.has(key)) {
      return {
        rowNumber: entry.rowNumber,
        status: 'duplicate',
        errors: [],
        matchId: donor.id,
        matchReasons: [SAME_DONATION],
      };
    }
    return { rowNumber: entry.rowNumber, status: 'valid', errors: [], matchId: null, matchReasons: [] };
  });
}

/**
 * Writes one batch of a donation import on the commit's transaction: the rows to create are read and
 * their donors found again (the register may have changed since the dry run), the gifts inserted in the
 * donors' currencies, and each donor's history says "Donation of … dated … imported from <file>.".
 */
export async function writeDonationRows(
  tx: Transaction,
  row: ImportRow,
  batch: Array<{ stored: StoredRow; action: 'create' | 'merge' }>,
  lookup: ReferenceLookup,
  { today, userName }: { today: string; userName: string },
): Promise<{ committed: CommittedRow[]; refused: ImportRowError[] }> {
  const refused: ImportRowError[] = [];
  const read = batch.map(({ stored, action }) => ({
    rowNumber: stored.rowNumber,
    action,
    ...readDonationRow(stored.cells, row.mapping, row.options, lookup, today),
  }));
  const donorsOf = await findDonors(
    tx,
    read.flatMap((entry) => (entry.donor ? [entry.donor] : [])),
  );
  const gifts: Array<{ rowNumber: number; donor: Donor; gift: NonNullable<ReadDonationRow['gift']> }> = [];
  for (const entry of read) {
    if (entry.action === 'merge') {
      refused.push({
        row: entry.rowNumber,
        field: '',
        message: 'A donation cannot be merged: create it or skip it.',
      });
      continue;
    }
    const { donor, error } = resolveDonor(entry, donorsOf);
    const errors = error ? [...entry.errors, error] : entry.errors;
    if (!entry.gift || !donor || errors.length > 0) {
      for (const problem of errors) refused.push({ row: entry.rowNumber, ...problem });
      continue;
    }
    gifts.push({ rowNumber: entry.rowNumber, donor, gift: entry.gift });
  }
  if (gifts.length === 0) return { committed: [], refused };
  // PostgreSQL returns the rows of a multi-row INSERT … VALUES in the order of its values.
  const inserted = await tx
    .insert(donations)
    .values(
      gifts.map(({ donor, gift }) => ({
        subscriberId: donor.id,
        amount: gift.amount.toFixed(2),
        currencyId: donor.currencyId,
        donationDate: gift.donationDate,
        notes: gift.notes,
        addedBy: userName,
      })),
    )
    .returning({ id: donations.id });
  await tx.insert(subscriberHistory).values(
    gifts.map(({ donor, gift }) => ({
      subscriberId: donor.id,
      userName,
      description: `Donation of ${formatAmount(gift.amount, donor.symbol)} dated ${gift.donationDate} imported from ${row.fileName}.`,
    })),
  );
  return {
    committed: inserted.map(({ id }, index) => ({
      rowNumber: gifts[index]?.rowNumber ?? 0,
      action: 'created',
      recordId: id,
      recordVersion: 0,
      before: null,
    })),
    refused,
  };
}

/**
 * Undoes a donation import on the caller's transaction: deletes the gifts it created, each donor's
 * history saying so. Returns the gifts that cannot go because a tax receipt covers them since (the
 * undo is then refused), described for the message.
 */
export async function undoDonationRows(tx: Transaction, row: ImportRow, ids: number[], userName: string) {
  if (ids.length === 0) return [];
  const current = await queryRows<{
    id: number;
    subscriberId: number;
    amount: string;
    donationDate: string;
    symbol: string;
    receiptNumber: number | null;
  }>(
    tx,
    sql`select d.id, d.subscriber_id as "subscriberId", d.amount, d.donation_date::text as "donationDate",
               c.symbol, r.number as "receiptNumber"
        from donations d join currencies c on c.id = d.currency_id left join receipts r on r.id = d.receipt_id
        where d.id = ${anyOf(ids, 'int')}
        for update of d`,
  );
  const receipted = current.filter((gift) => gift.receiptNumber !== null);
  if (receipted.length > 0) {
    return receipted.map(
      (gift) =>
        `the donation of ${formatAmount(Number(gift.amount), gift.symbol)} dated ${gift.donationDate} of subscriber ${gift.subscriberId} (receipt n° ${gift.receiptNumber})`,
    );
  }
  await tx.execute(sql`delete from donations where id = ${anyOf(ids, 'int')}`);
  if (current.length > 0) {
    await tx.insert(subscriberHistory).values(
      current.map((gift) => ({
        subscriberId: gift.subscriberId,
        userName,
        description: `Donation of ${formatAmount(Number(gift.amount), gift.symbol)} dated ${gift.donationDate} removed: the import of ${row.fileName} was undone.`,
      })),
    );
  }
  return [];
}

/** The donation import's {@link RowImporter}: each row a gift of a donor of the register. */
export function createDonationImporter({ row, lookup, today, userName }: RowImportContext): RowImporter {
  return {
    check: (db, batch) => checkDonationRows(db, row, batch, lookup, today),
    write: async (tx, batch) => {
      const { toWrite, skipped } = splitSkipped(batch);
      return { ...(await writeDonationRows(tx, row, toWrite, lookup, { today, userName })), skipped };
    },
    undo: async (tx, written) => {
      const ids = written.flatMap((entry) => (entry.recordId === null ? [] : [entry.recordId]));
      const receipted = await undoDonationRows(tx, row, ids, userName);
      if (receipted.length === 0) return undefined;
      return `Tax receipts were issued since the import for ${namedFew(receipted)}: a receipted donation stays.`;
    },
  };
}
