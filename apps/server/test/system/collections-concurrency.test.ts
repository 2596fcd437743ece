/**
 * SEPA direct-debit collections on real PostgreSQL with two server processes on one database
 * (docs/decisions/029): two builds of the same due date sent to both at the same moment give one draft
 * (one 201, one 200, the same id; each installment in exactly one line), and two first downloads of
 * a draft's file at the same moment give the same bytes, written once; later downloads return those
 * bytes whatever changed in the plans since, and the other pain.008 version is a 409.
 */
import { addCalendarDays, calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  openPool,
  type ServerProcess,
  signIn,
  startServer,
  startSmtpSink,
  stopAllServers,
} from './harness.ts';

const ADMIN_EMAIL = 'admin@example.org';
const ADMIN_PASSWORD = 'collections-concurrency-password-1';
/** Debtors, each with one monthly plan due on every due date of the test. */
const DEBTORS = 1_000;
/** Due dates built at the same moment by both servers, a month apart. */
const ROUNDS = 3;
const ICS = 'FR72ZZZ123456';
const CREDITOR_IBAN = 'FR7630006000011234567890189';
const VERSION = 'pain.008.001.08';
const OTHER_VERSION = 'pain.008.001.02';

type Summary = { id: number; dueDate: string; count: number; total: number; status: string };
type Answer<T> = { status: number; body: T };

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
let sql: pg.Pool | undefined;
let first: ServerProcess;
let second: ServerProcess;
let token = '';
const dueDates: string[] = [];

const db = () => sql as pg.Pool;

async function post<T>(server: ServerProcess, url: string, body: unknown): Promise<Answer<T>> {
  const answer = await fetch(`${server.url}${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as T };
}

/** The file of collection `id` in `version`: status, bytes, and the problem's code on an error. */
async function download(server: ServerProcess, id: number, version: string) {
  const answer = await fetch(`${server.url}/api/collections/${id}/file?version=${version}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const bytes = Buffer.from(await answer.arrayBuffer());
  const code = answer.ok ? undefined : (JSON.parse(bytes.toString('utf8')) as { code: string }).code;
  return { status: answer.status, bytes, code };
}

/** `months` later, same day of the month (days 1 to 28 only). */
function monthsAfter(day: string, months: number): string {
  const [year = 0, month = 1] = day.split('-').map(Number);
  const index = year * 12 + (month - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-${day.slice(8)}`;
}

/**
 * `count` subscribers with an email, each with an active recurring mandate (German IBAN, check digits
 * computed in SQL, ISO 13616) and a monthly plan of 5 to 100 euros due on `dueDate`'s day, started the
 * month before; the plans' ids.
 */
async function seedDebtors(count: number, dueDate: string, from = 1): Promise<number[]> {
  const result = await db().query<{ id: number }>(
    `with added as (
       insert into subscribers (first_name, last_name, email, town, postcode, country_id, currency_id,
                                search_first_name, search_last_name)
       select 'Prénom' || n, 'Débiteur' || n, 'debtor-' || n || '@example.org', 'Annemasse', '74100',
              (select id from countries where iso_code = 'FR'), (select id from currencies where iso_code = 'EUR'),
              'prenom' || n, 'debiteur' || n
         from generate_series($1::int, $1::int + $2::int - 1) as n
       returning id
     ),
     numbered as (select id, $1::int - 1 + row_number() over (order by id) as n from added),
     accounts as (select id, n, '37040044' || lpad(n::text, 10, '0') as bban from numbered),
     signed as (
       insert into mandates (subscriber_id, rum, iban, signed_on, type, status)
       select id, 'RUM-CONC-' || lpad(n::text, 6, '0'),
              'DE' || lpad((98 - (bban || '131400')::numeric % 97)::text, 2, '0') || bban,
              '2024-01-10', 'recurring', 'active'
         from accounts
       returning id, subscriber_id
     )
     insert into plans (subscriber_id, mandate_id, amount, frequency, day_of_month, start_on, created_by)
     select subscriber_id, id, 5 + (subscriber_id * 37 % 9501) / 100.0, 'monthly',
            extract(day from $3::date)::int, ($3::date - interval '1 month')::date, 'Test'
       from signed
     returning id`,
    [from, count, dueDate],
  );
  return result.rows.map((row) => row.id).sort((a, b) => a - b);
}

let planIds: number[] = [];

beforeAll(async () => {
  database = await createTestDatabase('collections');
  sink = await startSmtpSink();
  sql = openPool(database.url);
  const env = {
    DATABASE_URL: database.url,
    SMTP_URL: sink.url,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    PUBLIC_URL: 'http://back-office.test',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
  };
  first = await startServer(env);
  await first.ready(60_000);
  second = await startServer(env);
  await second.ready(60_000);
  token = await signIn(first.url, ADMIN_EMAIL, ADMIN_PASSWORD);

  await db().query(
    `insert into organisation_settings (id, organisation_name, sepa_creditor_id, sepa_creditor_iban, sepa_creditor_bic)
     values (1, 'Les Amis de l''Ecole', $1, $2, 'BNPAFRPP')
     on conflict (id) do update set organisation_name = excluded.organisation_name,
       sepa_creditor_id = excluded.sepa_creditor_id, sepa_creditor_iban = excluded.sepa_creditor_iban,
       sepa_creditor_bic = excluded.sepa_creditor_bic`,
    [ICS, CREDITOR_IBAN],
  );
  // The first due date the pre-notification allows (14 days by default), on a day every month has.
  let due = addCalendarDays(calendarDay(new Date(), DEFAULT_TIME_ZONE), 15);
  while (Number(due.slice(8)) > 28) due = addCalendarDays(due, 1);
  for (let round = 0; round < ROUNDS; round += 1) dueDates.push(monthsAfter(due, round));
  planIds = await seedDebtors(DEBTORS, due);
});

afterAll(async () => {
  await stopAllServers();
  await sink?.close();
  await sql?.end();
  await database?.drop();
});

describe('collections built and exported by two servers at the same moment', () => {
  it('give one draft per due date: one 201 and one 200 naming it, each installment in one line', async () => {
    for (const dueDate of dueDates) {
      const answers = await Promise.all(
        [first, second].map((server) => post<Summary>(server, '/api/collections', { dueDate })),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);
      const [one, other] = answers.map((answer) => answer.body);
      expect(one?.id).toBe(other?.id);
      expect(one).toMatchObject({ dueDate, count: DEBTORS, status: 'draft' });
      expect(other).toEqual(one);

      const collections = await db().query<{ id: number; status: string }>(
        'select id, status from collections where due_date = $1',
        [dueDate],
      );
      expect(collections.rows).toEqual([{ id: one?.id, status: 'draft' }]);
      const lines = await db().query<{ plan_id: number; collection_id: number; status: string }>(
        'select plan_id, collection_id, status from collection_lines where due_date = $1 order by plan_id',
        [dueDate],
      );
      expect(lines.rows.map((line) => line.plan_id)).toEqual(planIds);
      expect(new Set(lines.rows.map((line) => `${line.collection_id} ${line.status}`))).toEqual(
        new Set([`${one?.id} pending`]),
      );
    }
  });

  it('write the file of a draft once when both download it first at the same moment', async () => {
    const [dueDate] = dueDates;
    const { rows } = await db().query<{ id: number }>('select id from collections where due_date = $1', [
      dueDate,
    ]);
    const id = rows[0]?.id ?? 0;
    const [one, other] = await Promise.all([download(first, id, VERSION), download(second, id, VERSION)]);
    expect([one.status, other.status]).toEqual([200, 200]);
    expect(one.bytes.equals(other.bytes)).toBe(true);
    const xml = one.bytes.toString('utf8');
    expect(/<NbOfTxs>(\d+)<\/NbOfTxs>/.exec(xml)?.[1]).toBe(String(DEBTORS));

    // A plan's amount changed and a new plan due that day since: later downloads give the same bytes.
    await db().query('update plans set amount = amount + 10 where id = $1', [planIds[0]]);
    const [added] = await seedDebtors(1, dueDate ?? '', DEBTORS + 1);
    for (const server of [first, second, first]) {
      const later = await download(server, id, VERSION);
      expect(later.status).toBe(200);
      expect(later.bytes.equals(one.bytes)).toBe(true);
    }
    const otherVersion = await download(second, id, OTHER_VERSION);
    expect(otherVersion).toMatchObject({ status: 409, code: 'collections.version_mismatch' });

    const stored = await db().query<{ status: string; file_xml: string; file_version: string }>(
      'select status, file_xml, file_version from collections where id = $1',
      [id],
    );
    expect(stored.rows).toEqual([{ status: 'exported', file_xml: xml, file_version: VERSION }]);
    const lines = await db().query<{ n: number; total: string; added: number }>(
      `select count(*)::int as n, sum(amount)::text as total,
              count(*) filter (where plan_id = $2)::int as added
         from collection_lines where collection_id = $1 and status = 'pending'`,
      [id, added],
    );
    const ctrlSum = /<CtrlSum>([\d.]+)<\/CtrlSum>/.exec(xml)?.[1];
    expect(lines.rows).toEqual([{ n: DEBTORS, total: ctrlSum, added: 0 }]);
    // The debtors were told once: one pre-notification each, not one per download.
    const mails = await db().query<{ n: number; debtors: number }>(
      `select count(*)::int as n, count(distinct subscriber_id)::int as debtors from outbox_messages
        where subject like 'Prélèvement SEPA du %'`,
    );
    expect(mails.rows).toEqual([{ n: DEBTORS, debtors: DEBTORS }]);
  });

  it('write one version only when both ask for different versions at the same moment', async () => {
    const dueDate = dueDates[1];
    const { rows } = await db().query<{ id: number }>('select id from collections where due_date = $1', [
      dueDate,
    ]);
    const id = rows[0]?.id ?? 0;
    const answers = await Promise.all([download(first, id, VERSION), download(second, id, OTHER_VERSION)]);
    const won = answers.find((answer) => answer.status === 200);
    const lost = answers.find((answer) => answer.status !== 200);
    expect(won?.status).toBe(200);
    expect(lost).toMatchObject({ status: 409, code: 'collections.version_mismatch' });
    const version = answers[0]?.status === 200 ? VERSION : OTHER_VERSION;
    for (const server of [second, first]) {
      const later = await download(server, id, version);
      expect(later.status).toBe(200);
      expect(later.bytes.equals(won?.bytes ?? Buffer.alloc(0))).toBe(true);
    }
    const stored = await db().query<{ file_version: string }>(
      'select file_version from collections where id = $1',
      [id],
    );
    expect(stored.rows).toEqual([{ file_version: version }]);
  });
});
