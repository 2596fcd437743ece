/**
 * `npm run bench -- statements` (docs/decisions/033; ISO 20022 camt.053): a camt.053.001.08 day
 * statement of {@link ENTRIES} booked entries is imported and its credits matched to open invoices
 * (`POST /api/bank-statements`) in under 20 s, HTTP round trip, median of {@link STATEMENT_RUNS} runs.
 * Reading the file alone (`readStatementFiles`, in this process) is reported apart, and one more import
 * is profiled: the SQL statements it sends, counted and timed by kind, beside the same writes done by
 * one set-based statement per kind (the reference of what batching the matches would cost).
 *
 * The statement mixes, every 20 entries: 10 credits quoting an invoice's RF creditor reference
 * (ISO 11649) as their structured reference, each paying half of it (two per invoice); 3 quoting
 * "Facture <number>" in their text; 2 from the IBAN of the invoice's buyer, of exactly its amount;
 * 3 that match nothing (amounts above any invoice, half from a known IBAN); 2 debits. The invoices
 * (issued, open, in CHF) and their buyers are the suite's own (email `stmt-<n>@statements.bench.invalid`,
 * invoice numbers from {@link SALE_REF_BASE}), inserted by SQL before the measurement and deleted after
 * it. Each run imports new bank references (`BENCH-STMT-r<run>-<n>`); before it, the suite's entries,
 * payments and their history lines are deleted and its invoices made unpaid again.
 */

import type { StatementImport } from '@back-office/contract/bank-statements';
import { addCalendarDays, calendarDay } from '@back-office/contract/calendar';
import pg from 'pg';
import { readStatementFiles } from '../apps/server/src/modules/bank-statements/camt.ts';
import { creditorReference } from '../apps/server/src/modules/sales/payment-reference.ts';
import {
  camt053Statement,
  type StatementLine,
} from '../apps/server/test/fixtures/iso20022/statement-files.ts';
import {
  BENCH_USER_NAME,
  type BenchContext,
  type BenchRow,
  measureCalls,
  type Stats,
  type Suite,
  type SuiteResult,
  serverTiming,
  stats,
  vacuumAnalyze,
} from './harness.ts';

/** Entries of the statement: 20,000 (the import's speed goal); BENCH_STATEMENT_ENTRIES sets another number. */
const ENTRIES = Number(process.env.BENCH_STATEMENT_ENTRIES ?? 20_000);
/** Timed imports, after {@link STATEMENT_WARM_UP} not counted (each takes seconds). */
const STATEMENT_RUNS = 3;
const STATEMENT_WARM_UP = 1;
/** Timed readings of the file in this process. */
const PARSE_RUNS = 5;
const GOALS = { importSeconds: 20 } as const;
/** What marks the suite's rows: its buyers' email domain, its invoice numbers, its bank references. */
const EMAIL_DOMAIN = 'statements.bench.invalid';
const SALE_REF_BASE = 800_000_000;
const ENTRY_REF_PREFIX = 'BENCH-STMT-';
/** German bank codes (ISO 13616 BBAN) of the buyers' accounts and of accounts nobody has. */
const KNOWN_BANK = '99990001';
const UNKNOWN_BANK = '99990002';
const CURRENCY = 'CHF';

/** What an entry of the statement is meant to do, by its position (every 20 entries). */
type Kind = 'reference' | 'text' | 'iban' | 'unknown' | 'debit';
function kindAt(index: number): Kind {
  const slot = index % 20;
  if (slot < 10) return 'reference';
  if (slot < 13) return 'text';
  if (slot < 15) return 'iban';
  if (slot < 18) return 'unknown';
  return 'debit';
}

/** A German IBAN (ISO 13616, check digits mod 97-10) of `bank` and account `account`. */
function germanIban(bank: string, account: number): string {
  const bban = `${bank}${String(account).padStart(10, '0')}`;
  const check = 98n - (BigInt(`${bban}131400`) % 97n);
  return `DE${String(check).padStart(2, '0')}${bban}`;
}

/** One invoice of the suite: its number, RF reference, total in cents and its buyer (1-based). */
type BenchInvoice = { ref: number; reference: string; totalCents: number; buyer: number };

/**
 * The suite's invoices and buyers for a statement of `entries` entries: first those paid in two
 * halves by reference, then those quoted by number, then those paid from their buyer's IBAN. Buyer
 * `k` has invoices `2k - 1` and `2k`; totals are even cents from 20.00 to 199.98, the two of a buyer
 * differing. The buyers of IBAN-paid invoices have an IBAN, and so does one in four of the others.
 */
function plan(entries: number) {
  const counts: Record<Kind, number> = { reference: 0, text: 0, iban: 0, unknown: 0, debit: 0 };
  for (let index = 0; index < entries; index += 1) counts[kindAt(index)] += 1;
  const byReference = Math.ceil(counts.reference / 2);
  const total = byReference + counts.text + counts.iban;
  const invoices: BenchInvoice[] = [];
  for (let n = 1; n <= total; n += 1) {
    invoices.push({
      ref: SALE_REF_BASE + n,
      reference: creditorReference(SALE_REF_BASE + n),
      totalCents: 2 * (1000 + ((n * 37) % 9000)),
      buyer: Math.ceil(n / 2),
    });
  }
  const buyers = Math.ceil(total / 2);
  const firstIbanInvoice = byReference + counts.text + 1;
  const ibanOf = (buyer: number) =>
    2 * buyer >= firstIbanInvoice || buyer % 4 === 0 ? germanIban(KNOWN_BANK, buyer) : '';
  return {
    counts,
    invoices,
    buyers,
    ibanOf,
    pools: {
      reference: invoices.slice(0, byReference),
      text: invoices.slice(byReference, byReference + counts.text),
      iban: invoices.slice(byReference + counts.text),
    },
    expected: {
      entries,
      matched: counts.reference + counts.text + counts.iban,
      unmatched: counts.unknown,
      listed: counts.debit,
      duplicates: 0,
    } satisfies StatementImport,
  };
}
type Plan = ReturnType<typeof plan>;

const amount = (cents: number) => (cents / 100).toFixed(2);

/** The statement of run `run`: {@link ENTRIES} entries booked on `day`, bank references new to the run. */
function statementOf(planned: Plan, run: number, day: string): Buffer {
  const next: Record<'reference' | 'text' | 'iban', number> = { reference: 0, text: 0, iban: 0 };
  let unknown = 0;
  const lines: StatementLine[] = [];
  for (let index = 0; index < ENTRIES; index += 1) {
    const kind = kindAt(index);
    const line = { bankRef: `${ENTRY_REF_PREFIX}r${run}-${index + 1}`, bookingDate: day, currency: CURRENCY };
    if (kind === 'reference') {
      const invoice = planned.pools.reference[Math.floor(next.reference / 2)];
      next.reference += 1;
      if (!invoice) throw new Error('no invoice left for a reference credit');
      lines.push({
        ...line,
        amount: amount(invoice.totalCents / 2),
        debtorName: `Acheteur ${invoice.buyer}`,
        debtorIban: germanIban(UNKNOWN_BANK, 500_000 + invoice.buyer),
        reference: { type: 'SCOR', value: invoice.reference },
        text: 'Abonnement revue',
      });
    } else if (kind === 'text' || kind === 'iban') {
      const invoice = planned.pools[kind][next[kind]];
      next[kind] += 1;
      if (!invoice) throw new Error(`no invoice left for a ${kind} credit`);
      lines.push({
        ...line,
        amount: amount(invoice.totalCents),
        debtorName: `Acheteur ${invoice.buyer}`,
        ...(kind === 'text'
          ? { text: `Facture ${invoice.ref} merci` }
          : { debtorIban: planned.ibanOf(invoice.buyer), text: 'Virement revue' }),
      });
    } else if (kind === 'unknown') {
      unknown += 1;
      // Above any invoice's total; half from a buyer's known IBAN (one in four buyers has one).
      const iban =
        unknown % 2 === 0
          ? planned.ibanOf(4 * (1 + (unknown % Math.max(1, Math.floor(planned.buyers / 4)))))
          : germanIban(UNKNOWN_BANK, unknown);
      lines.push({
        ...line,
        amount: amount(50_000 + unknown),
        debtorName: `Donateur ${unknown}`,
        debtorIban: iban || germanIban(UNKNOWN_BANK, unknown),
        text: 'Don pour la revue',
      });
    } else {
      lines.push({ ...line, amount: amount(1000 + (index % 5000)), direction: 'DBIT', text: 'Frais' });
    }
  }
  return Buffer.from(camt053Statement(lines), 'utf8');
}

const buyersSql = `select id from subscribers where email like '%@${EMAIL_DOMAIN}'`;
const invoicesSql = `select id from sales where subscriber_id in (${buyersSql}) and ref > ${SALE_REF_BASE}`;

/**
 * Deletes what imports made of the suite's invoices: its statement entries (by bank reference), the
 * payments of its invoices and their lines in its buyers' histories; the invoices are unpaid again.
 */
async function resetImports(context: BenchContext) {
  const client = await context.pool.connect();
  try {
    await client.query('begin');
    await client.query(`delete from bank_statement_entries where entry_ref like '${ENTRY_REF_PREFIX}%'`);
    await client.query(`delete from sale_payments where sale_id in (${invoicesSql})`);
    await client.query(`update sales set paid_amount = 0 where id in (${invoicesSql}) and paid_amount <> 0`);
    await client.query(
      `delete from subscriber_history where subscriber_id in (${buyersSql})
         and description like 'Payment of % from a bank statement.'`,
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Deletes the suite's entries, payments, invoices and buyers (their history with them). Issued
 * invoices are kept by a trigger (migration 0033) except in a transaction that says it undoes an
 * import: this one does.
 */
async function removeAll(context: BenchContext) {
  await resetImports(context);
  const client = await context.pool.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config('back_office.undoing_import', 'on', true)`);
    await client.query(`delete from bank_statement_entries where sale_id in (${invoicesSql})`);
    await client.query(`delete from sales where id in (${invoicesSql})`);
    await client.query(`delete from subscribers where email like '%@${EMAIL_DOMAIN}'`);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/** Inserts the buyers and their issued invoices, one statement each (arrays bound as parameters). */
async function seed(context: BenchContext, planned: Plan) {
  const buyers = Array.from({ length: planned.buyers }, (_, index) => index + 1);
  await context.pool.query(
    `insert into subscribers (title, first_name, last_name, email, address1, postcode, town, country_id,
                              currency_id, added_by, search_first_name, search_last_name, search_town,
                              search_postcode, iban)
     select 'Mme', 'Prénom' || n, 'Acheteur' || n, 'stmt-' || n || '@${EMAIL_DOMAIN}', n || ' rue du Rhône',
            '1204', 'Genève', (select id from countries where iso_code = 'CH'),
            (select id from currencies where iso_code = '${CURRENCY}'), $3, 'prenom' || n, 'acheteur' || n,
            'geneve', '1204', iban
       from unnest($1::int[], $2::text[]) as b(n, iban)`,
    [buyers, buyers.map(planned.ibanOf), BENCH_USER_NAME],
  );
  const { invoices } = planned;
  await context.pool.query(
    `insert into sales (ref, subscriber_id, full_name, currency_id, swiss_sale, discount_percentage,
                        sub_total, discount_amount, donation, delivery_charge, total, include_thanks,
                        include_payment_terms, payment_term_days, added_by, invoice_issued_at, payment_reference)
     select i.ref, s.id, s.first_name || ' ' || s.last_name, s.currency_id, true, 0, i.total, 0, 0, 0, i.total,
            false, false, 30, $5, now() - interval '20 days', i.reference
       from unnest($1::int[], $2::numeric[], $3::text[], $4::text[]) as i(ref, total, reference, email)
       join subscribers s on s.email = i.email`,
    [
      invoices.map((invoice) => invoice.ref),
      invoices.map((invoice) => amount(invoice.totalCents)),
      invoices.map((invoice) => invoice.reference),
      invoices.map((invoice) => `stmt-${invoice.buyer}@${EMAIL_DOMAIN}`),
      BENCH_USER_NAME,
    ],
  );
  await vacuumAnalyze(context, [
    'subscribers',
    'sales',
    'sale_payments',
    'bank_statement_entries',
    'subscriber_history',
  ]);
}

/** One import: HTTP round trip and server time (ms), and the answer. */
type ImportRun = { roundTripMs: number; serverMs: number; answer: StatementImport };

/** Sends `file` to `POST /api/bank-statements`; checks the answer's counts against `expected`. */
async function importStatement(
  context: BenchContext,
  file: Buffer,
  expected: StatementImport,
): Promise<ImportRun> {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(file)], { type: 'application/xml' }), 'camt053.xml');
  const started = performance.now();
  const response = await fetch(`${context.base}/api/bank-statements`, {
    method: 'POST',
    headers: context.headers,
    body,
  });
  const text = await response.text();
  const roundTripMs = performance.now() - started;
  if (response.status !== 200)
    throw new Error(`POST /api/bank-statements answered ${response.status}: ${text}`);
  const answer = JSON.parse(text) as StatementImport;
  for (const key of Object.keys(expected) as Array<keyof StatementImport>) {
    if (answer[key] !== expected[key])
      throw new Error(`the import gave ${JSON.stringify(answer)}, expected ${JSON.stringify(expected)}`);
  }
  return { roundTripMs, serverMs: serverTiming(response), answer };
}

/** SQL statements of one kind sent during a profiled import: how many, and their time (ms, client side). */
type StatementKind = { kind: string; count: number; ms: number };

/** The first words of a statement, its value lists folded, as its kind. */
function kindOf(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\(\$\d+(?:, \$\d+)*\)/g, '(…)')
    .replace(/\$\d+/g, '?')
    .trim()
    .slice(0, 110);
}

/**
 * Runs `action` with every `pg` query of this process (the app's included) counted and timed, from
 * its sending to its answer: the statements' kinds, most time first.
 */
async function profileQueries(action: () => Promise<unknown>): Promise<StatementKind[]> {
  const kinds = new Map<string, StatementKind>();
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  const note = (text: string, started: number) => {
    const kind = kindOf(text);
    const entry = kinds.get(kind) ?? { kind, count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += performance.now() - started;
    kinds.set(kind, entry);
  };
  prototype.query = function query(this: unknown, ...args: unknown[]) {
    const [config] = args;
    const text =
      typeof config === 'string' ? config : String((config as { text?: unknown } | undefined)?.text ?? '');
    const started = performance.now();
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        note(text, started);
        return (callback as (...values: unknown[]) => unknown)(...results);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result instanceof Promise)
      result.then(
        () => note(text, started),
        () => note(text, started),
      );
    return result;
  };
  try {
    await action();
  } finally {
    prototype.query = original;
  }
  return [...kinds.values()]
    .map((entry) => ({ ...entry, ms: Math.round(entry.ms) }))
    .sort((a, b) => b.ms - a.ms);
}

/** A credit the import matched: entry, invoice, buyer, amount, bank reference and booking day. */
type Match = {
  id: number;
  saleId: number;
  saleRef: number;
  subscriberId: number;
  amount: string;
  entryRef: string;
  bookingDate: string;
};

/**
 * The reference of the matching's writes: what an import's matches wrote (payments, paid amounts,
 * history lines, entries' outcome) undone, then written again by one set-based statement per kind in
 * one transaction (the invoices locked and their credit notes read first, as the import does), on a
 * raw `pg` connection. Milliseconds of each run.
 */
async function setBasedWrites(context: BenchContext, runs: number): Promise<Stats> {
  const { rows: matches } = await context.pool.query<Match>(
    `select e.id, e.sale_id as "saleId", s.ref as "saleRef", e.subscriber_id as "subscriberId",
            e.amount::text as amount, e.entry_ref as "entryRef", e.booking_date::text as "bookingDate"
       from bank_statement_entries e join sales s on s.id = e.sale_id
      where e.entry_ref like '${ENTRY_REF_PREFIX}%' and e.status = 'matched' order by e.id`,
  );
  const timings: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const client = await context.pool.connect();
    try {
      await client.query('begin');
      await client.query(`delete from sale_payments where sale_id in (${invoicesSql})`);
      await client.query(
        `update sales set paid_amount = 0 where id in (${invoicesSql}) and paid_amount <> 0`,
      );
      await client.query(
        `delete from subscriber_history where subscriber_id in (${buyersSql})
           and description like 'Payment of % from a bank statement.'`,
      );
      await client.query(
        `update bank_statement_entries set status = 'unmatched', sale_id = null, payment_id = null,
                subscriber_id = null where entry_ref like '${ENTRY_REF_PREFIX}%' and status = 'matched'`,
      );
      await client.query('commit');
      const started = performance.now();
      await client.query('begin');
      const saleIds = [...new Set(matches.map((match) => match.saleId))];
      await client.query(
        'select id, total, paid_amount from sales where id = any($1) order by id for update',
        [saleIds],
      );
      await client.query('select sale_id from credit_notes where sale_id = any($1)', [saleIds]);
      const { rows: payments } = await client.query<{ id: number }>(
        `insert into sale_payments (sale_id, paid_on, amount, source, entry_ref, recorded_by)
         select sale_id, paid_on, amount, 'statement', entry_ref, $5
           from unnest($1::int[], $2::date[], $3::numeric[], $4::text[]) as p(sale_id, paid_on, amount, entry_ref)
         returning id`,
        [
          matches.map((match) => match.saleId),
          matches.map((match) => match.bookingDate),
          matches.map((match) => match.amount),
          matches.map((match) => match.entryRef),
          BENCH_USER_NAME,
        ],
      );
      await client.query(
        `update sales s set paid_amount = s.paid_amount + p.paid
           from (select sale_id, sum(amount) as paid from unnest($1::int[], $2::numeric[]) as u(sale_id, amount)
                  group by sale_id) p
          where s.id = p.sale_id`,
        [matches.map((match) => match.saleId), matches.map((match) => match.amount)],
      );
      await client.query(
        `insert into subscriber_history (subscriber_id, user_name, description)
         select subscriber_id, $3, description from unnest($1::int[], $2::text[]) as h(subscriber_id, description)`,
        [
          matches.map((match) => match.subscriberId),
          matches.map(
            (match) =>
              `Payment of CHF ${match.amount} dated ${match.bookingDate} recorded for the invoice of the sale #${match.saleRef} from a bank statement.`,
          ),
          BENCH_USER_NAME,
        ],
      );
      await client.query(
        `update bank_statement_entries e set status = 'matched', sale_id = u.sale_id, payment_id = u.payment_id,
                subscriber_id = u.subscriber_id
           from unnest($1::int[], $2::int[], $3::int[], $4::int[]) as u(id, sale_id, payment_id, subscriber_id)
          where e.id = u.id`,
        [
          matches.map((match) => match.id),
          matches.map((match) => match.saleId),
          payments.map((payment) => payment.id),
          matches.map((match) => match.subscriberId),
        ],
      );
      await client.query('commit');
      timings.push(performance.now() - started);
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
  }
  return stats(timings);
}

/** Milliseconds as seconds, rounded to 0.01. */
const seconds = (ms: number) => Math.round(ms / 10) / 100;
const secondsOf = (series: Stats) => `${seconds(series.median)} s (p95 ${seconds(series.p95)})`;

/** Seeds the invoices, measures the imports and the reading of the file, then removes the suite's rows. */
async function runStatementsBench(context: BenchContext): Promise<SuiteResult> {
  const planned = plan(ENTRIES);
  // Booked yesterday (organisation's time zone): a payment may not be dated after today.
  const day = addCalendarDays(calendarDay(new Date(), context.config.orgTimezone), -1);
  await removeAll(context);
  const seedStarted = performance.now();
  await seed(context, planned);
  const seedSeconds = seconds(performance.now() - seedStarted);
  process.stdout.write(
    `${planned.invoices.length} open invoices of ${planned.buyers} buyers seeded in ${seedSeconds} s; expected of each import: ${JSON.stringify(planned.expected)}.\n`,
  );

  const runs: ImportRun[] = [];
  let fileBytes = 0;
  let profile: StatementKind[] = [];
  let profiled: ImportRun | undefined;
  let parse: Stats = stats([]);
  let setBased: Stats = stats([]);
  try {
    for (let run = 0; run < STATEMENT_WARM_UP + STATEMENT_RUNS; run += 1) {
      await resetImports(context);
      const file = statementOf(planned, run, day);
      fileBytes = file.length;
      const measured = await importStatement(context, file, planned.expected);
      process.stdout.write(
        `run ${run + 1}${run < STATEMENT_WARM_UP ? ' (warm-up)' : ''}: ${seconds(measured.roundTripMs)} s (server ${seconds(measured.serverMs)} s) ${JSON.stringify(measured.answer)}\n`,
      );
      if (run >= STATEMENT_WARM_UP) runs.push(measured);
    }

    const file = statementOf(planned, STATEMENT_WARM_UP + STATEMENT_RUNS, day);
    parse = await measureCalls(() => readStatementFiles(file, 'camt053.xml'), {
      runs: PARSE_RUNS,
      warmUp: 1,
    });

    // One more import, its SQL statements counted and timed (the counting slows it a little).
    await resetImports(context);
    profile = await profileQueries(async () => {
      profiled = await importStatement(context, file, planned.expected);
    });
    setBased = await setBasedWrites(context, 3);
  } finally {
    await removeAll(context);
  }

  const roundTrip = stats(runs.map((run) => run.roundTripMs));
  const server = stats(runs.map((run) => run.serverMs));
  const statements = profile.reduce((sum, entry) => sum + entry.count, 0);
  const sqlMs = profile.reduce((sum, entry) => sum + entry.ms, 0);
  process.stdout.write(
    `Profiled import: ${seconds(profiled?.roundTripMs ?? 0)} s, ${statements} SQL statements taking ${seconds(sqlMs)} s (client side, sending to answer):\n${profile
      .slice(0, 15)
      .map(
        (entry) => `  ${String(entry.count).padStart(7)} × ${String(entry.ms).padStart(7)} ms  ${entry.kind}`,
      )
      .join('\n')}\n`,
  );
  const megabytes = Math.round(fileBytes / 1024 / 102.4) / 10;
  const size = ENTRIES.toLocaleString('en-GB');
  const { expected } = planned;
  const rows: BenchRow[] = [
    {
      figure: `camt.053 of ${size} entries (${megabytes} MB) imported and matched (POST /api/bank-statements: ${expected.matched} matched, ${expected.unmatched} unmatched, ${expected.listed} debits listed), HTTP round trip, median of ${STATEMENT_RUNS}`,
      goal: `< ${GOALS.importSeconds} s`,
      measured: `${secondsOf(roundTrip)} (server ${secondsOf(server)})`,
      passed: seconds(roundTrip.median) < GOALS.importSeconds,
      value: seconds(roundTrip.median),
      unit: 's',
    },
    {
      figure: `camt.053 of ${size} entries: reading alone (readStatementFiles, in process), median of ${PARSE_RUNS}`,
      goal: `within the ${GOALS.importSeconds} s`,
      measured: secondsOf(parse),
      passed: seconds(roundTrip.median) < GOALS.importSeconds,
      value: seconds(parse.median),
      unit: 's',
    },
    {
      figure: `camt.053 of ${size} entries: SQL statements of one import (profiled run, ${seconds(profiled?.roundTripMs ?? 0)} s), time from sending to answer`,
      goal: `within the ${GOALS.importSeconds} s`,
      measured: `${statements} statements, ${seconds(sqlMs)} s (the matches' writes as one set-based statement per kind: ${secondsOf(setBased)})`,
      passed: seconds(roundTrip.median) < GOALS.importSeconds,
      value: seconds(sqlMs),
      unit: 's',
      baseline: { value: seconds(setBased.median), label: 'set-based writes' },
    },
  ];
  return {
    rows,
    details: {
      entries: ENTRIES,
      invoices: planned.invoices.length,
      buyers: planned.buyers,
      kinds: planned.counts,
      expected,
      seedSeconds,
      runs: STATEMENT_RUNS,
      warmUp: STATEMENT_WARM_UP,
      goals: GOALS,
      fileBytes,
      milliseconds: { roundTrip, server, parse, setBasedWrites: setBased },
      profile: { roundTripMs: profiled?.roundTripMs, statements, sqlMs, kinds: profile.slice(0, 30) },
    },
  };
}

/** The statements suite (bank statement import's speed goal, docs/decisions/033). */
export const statementsSuite: Suite = { name: 'statements', run: runStatementsBench };
