import { and, asc, count, desc, eq, gt, gte, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import {
  anyOf,
  type Executor,
  inIdsPlaceholder,
  intArrayLiteral,
  preparedPerConnection,
  queryRows,
} from '../../db/client.ts';
import { allocateNumber } from '../../db/counters.ts';
import { countries, currencies, paymentMethods } from '../reference-lists/reference-lists.table.ts';
import { subscribers } from '../subscribers/subscribers.table.ts';
import {
  donations,
  type ReceiptDocument,
  type ReceiptDonor,
  type ReceiptLine,
  receiptCounter,
  receipts,
} from './donations.table.ts';
import { GENESIS_HASH, receiptHash } from './receipt-chain.ts';
import { linesTotal } from './receipt-conversion.ts';

export type ReceiptRow = typeof receipts.$inferSelect;

/** Receipts stamped or verified per statement. */
const CHAIN_BATCH = 1000;

/**
 * The hash the receipt `number` is chained to: the previous receipt's (the genesis hash for the first),
 * after stamping any receipt issued before hashes were kept.
 */
async function previousHash(db: Executor, number: number): Promise<string> {
  const previous = await hashBefore(db, number);
  if (previous !== null) return previous;
  await stampMissingHashes(db);
  return (await hashBefore(db, number)) ?? GENESIS_HASH;
}

/**
 * Stamps the hash of every receipt that has none (those issued before hashes were kept), in number
 * order, each chained to the one before: once at start-up after migration 0035, and by the next issue
 * if a receipt slipped through. Resolves with how many were stamped.
 */
export async function stampMissingHashes(db: Executor): Promise<number> {
  let stamped = 0;
  for (;;) {
    const batch = await db
      .select()
      .from(receipts)
      .where(isNull(receipts.hash))
      .orderBy(asc(receipts.number))
      .limit(CHAIN_BATCH);
    if (batch.length === 0) return stamped;
    let previous: string | undefined;
    for (const receipt of batch) {
      // Stamped in number order: the one before is stamped already (or the genesis).
      previous ??= (await hashBefore(db, receipt.number)) ?? GENESIS_HASH;
      const hash = receiptHash(previous, receipt);
      await db
        .update(receipts)
        .set({ hash })
        .where(and(eq(receipts.id, receipt.id), isNull(receipts.hash)));
      previous = hash;
      stamped += 1;
    }
  }
}

/** The stored hash of the receipt just before `number`: the genesis hash when none, null when it has none yet. */
async function hashBefore(db: Executor, number: number): Promise<string | null> {
  const [previous] = await hashBeforeStatement(db).execute({ number });
  return previous ? previous.hash : GENESIS_HASH;
}

/*
 * The statements an annual run repeats for every donor, prepared: PostgreSQL planned each of them
 * anew every time, 1.2 ms of its CPU a receipt (see preparedPerConnection).
 */
const hashBeforeStatement = preparedPerConnection((db) =>
  db
    .select({ hash: receipts.hash })
    .from(receipts)
    .where(lt(receipts.number, sql.placeholder('number')))
    .orderBy(desc(receipts.number))
    .limit(1)
    .prepare('receipt_hash_before'),
);

const residenceStatement = preparedPerConnection((db) =>
  db
    .select({ isoCode: countries.isoCode })
    .from(subscribers)
    .leftJoin(countries, eq(countries.id, subscribers.countryId))
    .where(eq(subscribers.id, sql.placeholder('subscriberId')))
    .prepare('receipt_donor_residence'),
);

const lockSubscriberStatement = preparedPerConnection((db) =>
  db
    .select({ id: subscribers.id })
    .from(subscribers)
    .where(eq(subscribers.id, sql.placeholder('id')))
    .for('update')
    .prepare('receipt_lock_donor'),
);

const uncoveredDonationsStatement = preparedPerConnection((db) =>
  db
    .select()
    .from(donations)
    .where(
      and(
        eq(donations.subscriberId, sql.placeholder('subscriberId')),
        gte(donations.donationDate, sql.placeholder('from')),
        lt(donations.donationDate, sql.placeholder('to')),
        isNull(donations.receiptId),
      ),
    )
    .orderBy(asc(donations.donationDate), asc(donations.id))
    .prepare('receipt_uncovered_donations'),
);

const annualReceiptsStatement = preparedPerConnection((db) =>
  db
    .select()
    .from(receipts)
    .where(
      and(
        eq(receipts.subscriberId, sql.placeholder('subscriberId')),
        eq(receipts.year, sql.placeholder('year')),
        eq(receipts.kind, 'annual'),
        eq(receipts.status, 'issued'),
      ),
    )
    .orderBy(asc(receipts.number))
    .prepare('receipt_annual_of_donor'),
);

const documentDonorStatement = preparedPerConnection((db) =>
  db
    .select({
      title: subscribers.title,
      firstName: subscribers.firstName,
      lastName: subscribers.lastName,
      email: subscribers.email,
      address1: subscribers.address1,
      address2: subscribers.address2,
      address3: subscribers.address3,
      postcode: subscribers.postcode,
      town: subscribers.town,
      country: countries.name,
      paymentMethod: paymentMethods.name,
    })
    .from(subscribers)
    .leftJoin(countries, eq(countries.id, subscribers.countryId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, subscribers.paymentMethodId))
    .where(eq(subscribers.id, sql.placeholder('subscriberId')))
    .prepare('receipt_document_donor'),
);

const currencyByCodeStatement = preparedPerConnection((db) =>
  db
    .select()
    .from(currencies)
    .where(eq(currencies.isoCode, sql.placeholder('isoCode')))
    .prepare('receipt_currency_by_code'),
);

const currencyStatement = preparedPerConnection((db) =>
  db
    .select()
    .from(currencies)
    .where(eq(currencies.id, sql.placeholder('id')))
    .prepare('receipt_currency'),
);

/** The currencies of the ids `ids` (see inIdsPlaceholder). */
const currenciesStatement = preparedPerConnection((db) =>
  db
    .select({ id: currencies.id, name: currencies.name, isoCode: currencies.isoCode })
    .from(currencies)
    .where(inIdsPlaceholder(currencies.id))
    .prepare('receipt_currencies'),
);

const insertReceiptStatement = preparedPerConnection((db) =>
  db
    .insert(receipts)
    .values({
      number: sql.placeholder('number'),
      kind: sql.placeholder('kind'),
      document: sql.placeholder('document'),
      year: sql.placeholder('year'),
      total: sql.placeholder('total'),
      currencyId: sql.placeholder('currencyId'),
      issuedAt: sql.placeholder('issuedAt'),
      issuedBy: sql.placeholder('issuedBy'),
      replacesNumber: sql.placeholder('replacesNumber'),
      lines: sql.placeholder('lines'),
      subscriberId: sql.placeholder('subscriberId'),
      hash: sql.placeholder('hash'),
    })
    .returning()
    .prepare('receipt_insert'),
);

/** Covers by receipt `receiptId` the gifts of the ids `ids` that no receipt covers yet. */
const coverDonationsStatement = preparedPerConnection((db) =>
  db
    .update(donations)
    .set({ receiptId: sql`${sql.placeholder('receiptId')}` })
    .where(and(inIdsPlaceholder(donations.id), isNull(donations.receiptId)))
    .prepare('receipt_cover_donations'),
);

/** What the register filters on: the year of the gifts, the status, or one number. */
export type ReceiptRegisterFilter = {
  year?: number | undefined;
  status?: 'issued' | 'cancelled' | undefined;
  number?: number | undefined;
};

const registerWhere = (filter: ReceiptRegisterFilter): SQL | undefined =>
  and(
    filter.year === undefined ? undefined : eq(receipts.year, filter.year),
    filter.status === undefined ? undefined : eq(receipts.status, filter.status),
    filter.number === undefined ? undefined : eq(receipts.number, filter.number),
  );

/** All SQL of tax receipts (docs/decisions/005). */
export function createReceiptsRepository() {
  return {
    /**
     * Issues a receipt of `lines` (the gifts as converted into the receipt's currency, see
     * `receiptLines`) on the caller's transaction: the next number (gapless), the lines kept and their
     * gifts covered by it, its total, and its hash chained to the previous receipt's (the counter's row
     * lock, held until commit, makes the previous receipt the last one committed).
     */
    issue: async (
      db: Executor,
      values: {
        kind: 'single' | 'annual';
        document: ReceiptDocument;
        subscriberId: number;
        year: number;
        currencyId: number;
        lines: ReceiptLine[];
        issuedAt: Date;
        issuedBy: string;
        replacesNumber?: number | undefined;
      },
    ) => {
      const number = await allocateNumber(db, receiptCounter, receiptCounter.lastNumber);
      const content = {
        number,
        kind: values.kind,
        document: values.document,
        year: values.year,
        total: linesTotal(values.lines),
        currencyId: values.currencyId,
        // Stored to the microsecond, read back to the millisecond: hash what will be read.
        issuedAt: new Date(values.issuedAt.getTime()),
        issuedBy: values.issuedBy,
        replacesNumber: values.replacesNumber ?? null,
        lines: values.lines,
      };
      const hash = receiptHash(await previousHash(db, number), content);
      const [row] = await insertReceiptStatement(db).execute({
        ...content,
        subscriberId: values.subscriberId,
        hash,
      });
      if (!row) throw new Error('insert into receipts returned no row');
      await coverDonationsStatement(db).execute({
        receiptId: row.id,
        ids: intArrayLiteral(values.lines.map((line) => line.donationId)),
      });
      return row;
    },

    /** The ISO 3166-1 code of the country the donor lives in, or null (none, or a country without code). */
    residenceOf: async (db: Executor, subscriberId: number): Promise<string | null> => {
      const [row] = await residenceStatement(db).execute({ subscriberId });
      return row?.isoCode ?? null;
    },

    /** The currencies of these ids, with their ISO 4217 codes (null when a currency has none). */
    currenciesOf: (db: Executor, ids: number[]) =>
      currenciesStatement(db).execute({ ids: intArrayLiteral(ids) }),

    /** The currency of that ISO 4217 code, or undefined. */
    currencyByCode: async (db: Executor, isoCode: string) => {
      const [row] = await currencyByCodeStatement(db).execute({ isoCode });
      return row;
    },

    /** The receipt of that number, or undefined. */
    findByNumber: async (db: Executor, number: number) => {
      const [row] = await db.select().from(receipts).where(eq(receipts.number, number));
      return row;
    },

    /** The receipt of that number, locked for the rest of the transaction. */
    lockByNumber: async (db: Executor, number: number) => {
      const [row] = await db.select().from(receipts).where(eq(receipts.number, number)).for('update');
      return row;
    },

    /**
     * Records a receipt's cancellation (when, by whom, why) and releases the gifts it covered, which
     * can be receipted again. Resolves with the receipt, or undefined when it was cancelled already.
     */
    cancel: async (db: Executor, id: number, values: { at: Date; by: string; reason: string }) => {
      const [row] = await db
        .update(receipts)
        .set({
          status: 'cancelled',
          cancelledAt: values.at,
          cancelledBy: values.by,
          cancelReason: values.reason,
        })
        .where(and(eq(receipts.id, id), eq(receipts.status, 'issued')))
        .returning();
      if (row) await db.update(donations).set({ receiptId: null }).where(eq(donations.receiptId, id));
      return row;
    },

    /** The gifts a receipt covered, as they are now (for a replacement). */
    donationsOf: (db: Executor, ids: number[]) =>
      db
        .select()
        .from(donations)
        .where(sql`${donations.id} = ${anyOf(ids, 'int')}`)
        .orderBy(asc(donations.donationDate), asc(donations.id)),

    /**
     * One page of the register, by number, with each receipt's donor name (as printed: the kept copy of
     * an anonymised donor), currency symbol and the number of the receipt that replaced it.
     */
    register: async (
      db: Executor,
      filter: ReceiptRegisterFilter,
      { offset, limit }: { offset: number; limit: number },
    ) => {
      const where = registerWhere(filter);
      const [rows, [counted]] = await Promise.all([
        queryRows<{
          number: number;
          issuedAt: Date | string;
          subscriberId: number;
          title: string;
          firstName: string;
          lastName: string;
          total: string;
          currency: string;
          status: 'issued' | 'cancelled';
          cancelReason: string | null;
          replacesNumber: number | null;
          replacedBy: number | null;
          hash: string | null;
        }>(
          db,
          // The main table unaliased: the filter's columns name it "receipts".
          sql`select receipts.number, receipts.issued_at as "issuedAt", receipts.subscriber_id as "subscriberId",
                     coalesce(receipts.donor->>'title', s.title) as title,
                     coalesce(receipts.donor->>'firstName', s.first_name) as "firstName",
                     coalesce(receipts.donor->>'lastName', s.last_name) as "lastName",
                     receipts.total, c.symbol as currency, receipts.status,
                     receipts.cancel_reason as "cancelReason", receipts.replaces_number as "replacesNumber",
                     replacement.number as "replacedBy", receipts.hash
                from ${receipts}
                join ${subscribers} s on s.id = receipts.subscriber_id
                join ${currencies} c on c.id = receipts.currency_id
                left join ${receipts} replacement on replacement.replaces_number = receipts.number
               where ${where ?? sql`true`}
               order by receipts.number offset ${offset} limit ${limit}`,
        ),
        db.select({ n: count() }).from(receipts).where(where),
      ]);
      return { rows, count: Number(counted?.n ?? 0) };
    },

    /** Up to `limit` receipts after number `after`, in number order: the chain as {@link receiptHash} reads it. */
    chainAfter: (db: Executor, after: number, limit = CHAIN_BATCH) =>
      db.select().from(receipts).where(gt(receipts.number, after)).orderBy(asc(receipts.number)).limit(limit),

    findById: async (db: Executor, id: number) => {
      const [row] = await db.select().from(receipts).where(eq(receipts.id, id));
      return row;
    },

    /** The donation locked for the rest of the transaction, so two requests issue one receipt. */
    lockDonation: async (db: Executor, id: number) => {
      const [row] = await db.select().from(donations).where(eq(donations.id, id)).for('update');
      return row;
    },

    /** Locks the donor, so two requests for the same annual receipt issue one. */
    lockSubscriber: async (db: Executor, id: number) => {
      const [row] = await lockSubscriberStatement(db).execute({ id });
      return row;
    },

    /** The donor's gifts of `year` that no receipt covers yet, oldest first. */
    listUncoveredDonations: (db: Executor, subscriberId: number, year: number) =>
      uncoveredDonationsStatement(db).execute({
        subscriberId,
        from: `${year}-01-01`,
        to: `${year + 1}-01-01`,
      }),

    /** The donor's annual receipts of `year` still in force (a cancelled one is not sent again). */
    listAnnualReceipts: (db: Executor, subscriberId: number, year: number) =>
      annualReceiptsStatement(db).execute({ subscriberId, year }),

    /**
     * Everything a receipt document shows: the donations it covers, the donor and the currency. The
     * donor is the copy kept on the receipt when there is one (an anonymised donor,
     * docs/decisions/019), else the subscriber as they are now.
     */
    loadDocumentData: async (db: Executor, receipt: ReceiptRow) => {
      // The gifts as issued (converted, with their rates): a cancelled receipt no longer covers them, and still prints them.
      const covered = receipt.lines;
      const [current] = receipt.donor
        ? []
        : await documentDonorStatement(db).execute({ subscriberId: receipt.subscriberId });
      const donor: ReceiptDonor | undefined = receipt.donor ?? current;
      const [currency] = await currencyStatement(db).execute({ id: receipt.currencyId });
      if (!donor || !currency) throw new Error(`receipt ${receipt.id} lost its donor or currency`);
      return { receipt, donations: covered, donor, currency };
    },

    /** The donor's receipts, by number (GDPR art. 15 archive). */
    listBySubscriber: (db: Executor, subscriberId: number) =>
      db.select().from(receipts).where(eq(receipts.subscriberId, subscriberId)).orderBy(asc(receipts.number)),

    /**
     * Copies the donor block as printed now onto each of their receipts that has no copy yet, before
     * the donor is anonymised, so the receipts stay as issued (docs/decisions/019). The email is not
     * copied: it is not printed, and a receipt of an anonymised donor must never be emailed.
     */
    keepDonorAsIssued: async (db: Executor, subscriberId: number) => {
      await db.execute(sql`
        update ${receipts} set donor = jsonb_build_object(
          'title', s.title, 'firstName', s.first_name, 'lastName', s.last_name, 'email', '',
          'address1', s.address1, 'address2', s.address2, 'address3', s.address3,
          'postcode', s.postcode, 'town', s.town, 'country', c.name, 'paymentMethod', p.name)
        from ${subscribers} s
        left join ${countries} c on c.id = s.country_id
        left join ${paymentMethods} p on p.id = s.payment_method_id
        where s.id = ${receipts.subscriberId} and ${receipts.subscriberId} = ${subscriberId}
          and ${receipts.donor} is null`);
    },

    /**
     * Drops the donor copies of anonymised donors' receipts issued before `issuedBefore`: the receipt
     * then prints the anonymised record. Resolves with the donor of each receipt changed.
     */
    forgetDonors: async (db: Executor, issuedBefore: Date) => {
      const rows = await db
        .update(receipts)
        .set({ donor: null })
        .where(and(isNotNull(receipts.donor), lt(receipts.issuedAt, issuedBefore), anonymisedDonor))
        .returning({ subscriberId: receipts.subscriberId });
      return rows.map((row) => row.subscriberId);
    },

    /** Whether {@link forgetDonors} has anything to do. */
    hasDonorsToForget: async (db: Executor, issuedBefore: Date) => {
      const rows = await db
        .select({ id: receipts.id })
        .from(receipts)
        .where(and(isNotNull(receipts.donor), lt(receipts.issuedAt, issuedBefore), anonymisedDonor))
        .limit(1);
      return rows.length > 0;
    },
  };
}

/** The receipt's donor is anonymised (through the partial index of anonymised subscribers). */
const anonymisedDonor = sql`${receipts.subscriberId} in (select id from ${subscribers} where ${subscribers.anonymisedAt} is not null)`;

export type ReceiptsRepository = ReturnType<typeof createReceiptsRepository>;
export type ReceiptDocumentData = Awaited<ReturnType<ReceiptsRepository['loadDocumentData']>>;
