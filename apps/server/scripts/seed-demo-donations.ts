/**
 * Demo donations for `npm run seed:demo -- --donations N` (the donation speed goal is set on 1,000,000
 * donations across the subscribers). Gifts are dated over the last three years, in each donor's currency,
 * 5 to 500 with two decimals; most donors give once or a few times, some give every month. Rows go in
 * oldest first (ids follow the dates, as in a live database) with one multi-row INSERT … SELECT FROM
 * unnest(…) of 10,000 rows at a time. No receipt is issued for them.
 */
import { count, sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, queryRows } from '../src/db/client.ts';
import { donations } from '../src/modules/donations/donations.table.ts';
import {
  copyLines,
  csvValue,
  dropSecondaryIndexes,
  REBUILD_INDEXES_FROM,
  withoutRowTriggers,
} from './seed-copy.ts';
import { ascendingOrder, createSeedRandom, DAY_MS, type SeedRandom, utcMidnight } from './seed-random.ts';

/** Rows per INSERT statement (7 array parameters, whatever the number of rows). */
const BATCH_SIZE = 10_000;
/** Rows per `COPY` statement (PostgreSQL). */
const COPY_BATCH_SIZE = 100_000;
/** How far back the gifts go. */
const SPAN_DAYS = 3 * 365;
const DEMO_NOTES = [
  'Don en ligne',
  'Chèque reçu par courrier',
  'En mémoire de sa mère',
  'Don lors de la conférence',
  'Virement ponctuel',
  'Pour le fonds de solidarité',
];
/** Round amounts people often give, in cents. */
const ROUND_AMOUNTS: ReadonlyArray<readonly [number, number]> = [
  [1000, 10],
  [2000, 14],
  [2500, 8],
  [3000, 10],
  [5000, 14],
  [10000, 9],
  [15000, 3],
  [20000, 3],
  [30000, 1],
  [50000, 1],
];

type Donor = { id: number; currencyId: number; directDebit: boolean };

/** A gift amount in cents, 500 to 50,000: round figures mostly, otherwise log-uniform with cents. */
function giftCents(random: SeedRandom): number {
  if (random.chance(0.6)) return random.weighted(ROUND_AMOUNTS);
  return Math.min(50_000, Math.max(500, Math.round(500 * 100 ** random.next())));
}

/**
 * The generated gifts, in parallel typed arrays (one entry per gift): donor, currency, cents, day
 * (days since 1970-01-01) and note (index in {@link DEMO_NOTES}, or -1).
 */
function generateGifts(random: SeedRandom, donors: Donor[], total: number, today: number) {
  const subscriberId = new Int32Array(total);
  const currencyId = new Int32Array(total);
  const cents = new Int32Array(total);
  const day = new Int32Array(total);
  const note = new Int8Array(total).fill(-1);
  // Donors in a shuffled order: each takes a number of gifts by their giving habit, until `total`.
  const order = Array.from(donors.keys());
  for (let index = order.length - 1; index > 0; index -= 1) {
    const other = random.int(0, index);
    [order[index], order[other]] = [order[other] ?? 0, order[index] ?? 0];
  }
  const firstDay = today - SPAN_DAYS + 1;
  let filled = 0;
  for (let turn = 0; filled < total; turn += 1) {
    const donor = donors[order[turn % order.length] ?? 0];
    if (!donor) break;
    const monthly = donor.directDebit ? random.chance(0.5) : random.chance(0.04);
    const add = (giftDay: number, giftCentsValue: number) => {
      if (filled >= total) return;
      subscriberId[filled] = donor.id;
      currencyId[filled] = donor.currencyId;
      cents[filled] = giftCentsValue;
      day[filled] = Math.min(today, Math.max(firstDay, giftDay));
      if (random.chance(0.05)) note[filled] = random.int(0, DEMO_NOTES.length - 1);
      filled += 1;
    };
    if (monthly) {
      // Every month from a start within the span, the same amount each time.
      const amount = random.pick([500, 1000, 1500, 2000, 2500, 3000, 5000]);
      const months = random.int(6, 36);
      const start = today - Math.floor(months * 30.44) + random.int(0, 27);
      for (let month = 0; month < months; month += 1) add(start + Math.floor(month * 30.44), amount);
    } else {
      const gifts = random.weighted([
        [random.int(1, 3), 0.75],
        [random.int(4, 12), 0.25],
      ] as const);
      for (let gift = 0; gift < gifts; gift += 1)
        add(firstDay + random.int(0, SPAN_DAYS - 1), giftCents(random));
    }
  }
  return { subscriberId, currencyId, cents, day, note, filled };
}

/** `day` (days since 1970-01-01) as `YYYY-MM-DD`. */
const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * Adds generated donations until the database holds `target`; returns how many there were and how many
 * were added. Needs visible subscribers (seed them first). `log` receives progress lines. With `copyTo`
 * (PostgreSQL) the rows go in through `COPY`, 100,000 at a time, the secondary indexes built once after
 * a load of 100,000 or more.
 */
export async function seedDemoDonations(
  db: Database,
  {
    target,
    log = () => {},
    now = new Date(),
    copyTo,
  }: { target: number; log?: (line: string) => void; now?: Date; copyTo?: { databaseUrl: string } },
) {
  const [existingRow] = await db.select({ n: count() }).from(donations);
  const existing = Number(existingRow?.n ?? 0);
  const missing = Math.max(0, target - existing);
  log(`${existing} donations exist; adding ${missing} to reach ${target}.`);
  if (missing === 0) return { existing, added: 0 };

  const donors = (
    await queryRows<{ id: number; currency_id: number; direct_debit: boolean; search_last_name: string }>(
      db,
      sql`select s.id, s.currency_id, coalesce(pm.direct_debit, false) as direct_debit, s.search_last_name
            from subscribers s
            left join payment_methods pm on pm.id = s.payment_method_id
           where not s.hidden
           order by s.id`,
    )
  ).map((row) => ({
    id: Number(row.id),
    currencyId: Number(row.currency_id),
    directDebit: row.direct_debit,
    searchLastName: row.search_last_name,
  }));
  if (donors.length === 0)
    throw new Error('There is no subscriber to give: add subscribers first (--subscribers N).');

  const random = createSeedRandom(existing + 5_000_011);
  const today = Math.floor(utcMidnight(now) / DAY_MS);
  const gifts = generateGifts(random, donors, missing, today);
  // Oldest first, so that ids follow the dates as they do when people record gifts as they come.
  const order = ascendingOrder(gifts.day.subarray(0, gifts.filled));

  const started = Date.now();
  const client = copyTo ? new pg.Client({ connectionString: copyTo.databaseUrl }) : undefined;
  await client?.connect();
  if (client) await withoutRowTriggers(client);
  const lastNameOf = new Map(donors.map((donor) => [donor.id, donor.searchLastName]));
  const rebuild =
    client && missing >= REBUILD_INDEXES_FROM ? await dropSecondaryIndexes(client, ['donations']) : [];
  let added = 0;
  try {
    while (added < gifts.filled) {
      const slice = order.subarray(
        added,
        Math.min(gifts.filled, added + (client ? COPY_BATCH_SIZE : BATCH_SIZE)),
      );
      const subscriberIds: number[] = [];
      const amounts: string[] = [];
      const currencyIds: number[] = [];
      const dates: string[] = [];
      const notes: string[] = [];
      const addedOn: string[] = [];
      for (const index of slice) {
        const giftDay = gifts.day[index] ?? today;
        subscriberIds.push(gifts.subscriberId[index] ?? 0);
        amounts.push(((gifts.cents[index] ?? 0) / 100).toFixed(2));
        currencyIds.push(gifts.currencyId[index] ?? 0);
        dates.push(isoDay(giftDay));
        const noteIndex = gifts.note[index] ?? -1;
        notes.push(noteIndex >= 0 ? (DEMO_NOTES[noteIndex] ?? '') : '');
        // Recorded on the day or up to a week later, in office hours, never in the future.
        const recorded = Math.min(
          now.getTime(),
          (giftDay + random.int(0, 7)) * DAY_MS + random.int(8 * 3600, 18 * 3600) * 1000,
        );
        addedOn.push(new Date(recorded).toISOString());
      }
      if (client) {
        const lines = subscriberIds.map(
          (id, row) =>
            `${id},${amounts[row]},${currencyIds[row]},${dates[row]},${csvValue(notes[row])},Demo data,${addedOn[row]},${csvValue(lastNameOf.get(id))}\n`,
        );
        await copyLines(
          client,
          'copy donations (subscriber_id, amount, currency_id, donation_date, notes, added_by, added_on, subscriber_search_last_name) from stdin (format csv)',
          lines,
        );
      } else {
        await db.execute(sql`
      insert into donations (subscriber_id, amount, currency_id, donation_date, notes, added_by, added_on)
      select subscriber_id, amount, currency_id, donation_date, notes, 'Demo data', added_on
        from unnest(${sql.param(subscriberIds)}::int[], ${sql.param(amounts)}::numeric[],
                    ${sql.param(currencyIds)}::int[], ${sql.param(dates)}::date[], ${sql.param(notes)}::text[],
                    ${sql.param(addedOn)}::timestamptz[])
             as t(subscriber_id, amount, currency_id, donation_date, notes, added_on)`);
      }
      added += slice.length;
      if (added % 100_000 === 0 || added === gifts.filled) {
        log(`  ${added} / ${missing} donations added (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }
    }
  } finally {
    for (const definition of rebuild) await client?.query(definition);
    await client?.end();
  }
  await db.execute(sql`analyze donations`);
  return { existing, added };
}
