import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Executor, MIGRATIONS_FOLDER, newPglite, queryRows } from '../../db/client.ts';

/**
 * Migration 0040 on a register whose subscribers carry a mandate reference (RUM) and an IBAN on their
 * record: each gets a first mandate, except the references that are not SEPA text even once
 * transliterated and the repeats of a reference (the first subscriber keeps it). Runs on an in-memory
 * PGlite, or on a database of its own next to `TEST_DATABASE_URL`'s when that is set.
 */

const MIGRATION = '0040_sepa_mandates';

type Journal = { entries: Array<{ tag: string }> };

/** A copy of the migrations folder that stops before `tag`. */
async function migrationsBefore(tag: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'back-office-migrations-'));
  await cp(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as Journal;
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  if (index === -1) throw new Error(`${tag} is not in the journal`);
  await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }));
  return dir;
}

/** A fresh database and a way to migrate it with a given folder. */
async function openEmptyDatabase(): Promise<{
  db: Executor;
  migrate: (folder: string) => Promise<void>;
  close: () => Promise<void>;
}> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    const client = newPglite();
    await client.waitReady;
    return {
      db: drizzlePglite(client) as unknown as Executor,
      migrate: (folder) => migratePglite(drizzlePglite(client), { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname}_m0040_${process.env.VITEST_POOL_ID ?? '1'}`;
  const name = url.pathname.slice(1);
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  // An idle connection ended by the server must not fail the run.
  pool.on('error', () => {});
  return {
    db: drizzlePg(pool) as unknown as Executor,
    migrate: (folder) => migratePg(drizzlePg(pool), { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      await admin.query(`drop database if exists "${name}"`);
      await admin.end();
    },
  };
}

describe(`migration ${MIGRATION}`, () => {
  let database: Awaited<ReturnType<typeof openEmptyDatabase>>;
  let olderMigrations: string;

  /** Inserts a subscriber as the older schema stores one; its id. */
  async function subscriber(values: {
    name: string;
    rum: string;
    iban?: string;
    bank?: string;
    startDate?: string | null;
    addedOn?: string;
    hidden?: boolean;
    paymentMethodId?: number | null;
  }): Promise<number> {
    const [row] = await queryRows<{ id: number }>(
      database.db,
      sql`insert into subscribers (first_name, last_name, currency_id, rum, iban, bank, start_date, added_on, hidden, payment_method_id)
          values ('Test', ${values.name}, 1, ${values.rum}, ${values.iban ?? ''}, ${values.bank ?? ''},
                  ${values.startDate ?? null}, ${values.addedOn ?? '2020-06-01T10:00:00Z'}, ${values.hidden ?? false},
                  ${values.paymentMethodId ?? null})
          returning id`,
    );
    if (!row) throw new Error('no subscriber inserted');
    return row.id;
  }

  const ids: Record<string, number> = {};

  beforeAll(async () => {
    database = await openEmptyDatabase();
    olderMigrations = await migrationsBefore(MIGRATION);
    await database.migrate(olderMigrations);
    await database.db.execute(sql`insert into currencies (name, symbol) values ('EURO', '€')`);
    await database.db.execute(
      sql`insert into payment_methods (name, direct_debit) values ('Chèque', false), ('Prélèvement SEPA', true)`,
    );
    ids.plain = await subscriber({
      name: 'Plain',
      rum: 'RUM-000001-20200601',
      iban: 'fr76 3000 6000 0112 3456 7890 189',
      bank: 'bnpafrpp',
      startDate: '2021-03-01',
    });
    ids.noStart = await subscriber({ name: 'NoStart', rum: ' ABO/12 ', iban: 'CH93-0076-2011-6238-5295-7' });
    ids.accented = await subscriber({ name: 'Accented', rum: 'Référence-Été', bank: 'Crédit Agricole' });
    ids.invalid = await subscriber({ name: 'Invalid', rum: 'RUM_42#' });
    ids.tooLong = await subscriber({ name: 'TooLong', rum: 'R'.repeat(36) });
    ids.first = await subscriber({ name: 'First', rum: 'SHARED-1' });
    ids.second = await subscriber({ name: 'Second', rum: 'SHARED-1' });
    ids.none = await subscriber({ name: 'None', rum: '' });
    ids.hidden = await subscriber({ name: 'Hidden', rum: 'DELETED-1', hidden: true });
    ids.future = await subscriber({ name: 'Future', rum: 'FUTURE-1', startDate: '2999-01-01' });
    ids.payer = await subscriber({
      name: 'Payer',
      rum: 'PAYER-1',
      startDate: '2022-01-01',
      paymentMethodId: 2,
    });
    ids.cheque = await subscriber({
      name: 'Cheque',
      rum: 'CHEQUE-1',
      startDate: '2022-01-01',
      paymentMethodId: 1,
    });
    for (const subscriberId of [ids.payer, ids.cheque]) {
      await database.db.execute(
        sql`insert into donations (subscriber_id, amount, currency_id, donation_date, added_by) values
            (${subscriberId}, 10, 1, '2021-12-01', 'x'), (${subscriberId}, 10, 1, '2024-05-03', 'x'), (${subscriberId}, 10, 1, '2023-01-10', 'x')`,
      );
    }
    await database.migrate(MIGRATIONS_FOLDER);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    if (olderMigrations) await rm(olderMigrations, { recursive: true, force: true });
  });

  type Row = {
    subscriber_id: number;
    rum: string;
    iban: string;
    bic: string | null;
    signed_on: string;
    type: string;
    status: string;
    last_collected_on: string | null;
  };
  const mandatesOf = async () => {
    const rows = await queryRows<Row>(
      database.db,
      sql`select subscriber_id, rum, iban, bic, to_char(signed_on, 'YYYY-MM-DD') as signed_on, type, status,
                 to_char(last_collected_on, 'YYYY-MM-DD') as last_collected_on
            from mandates order by id`,
    );
    return new Map(rows.map((row) => [row.subscriber_id, row]));
  };

  it('gives every subscriber with a valid reference a first active recurring mandate', async () => {
    const rows = await mandatesOf();
    expect(rows.get(ids.plain ?? 0)).toEqual({
      subscriber_id: ids.plain,
      rum: 'RUM-000001-20200601',
      iban: 'FR7630006000011234567890189',
      bic: 'BNPAFRPP',
      signed_on: '2021-03-01',
      type: 'recurring',
      status: 'active',
      last_collected_on: null,
    });
    // No start date: the day the subscriber was added; the IBAN cleaned of its dashes.
    expect(rows.get(ids.noStart ?? 0)).toMatchObject({
      rum: 'ABO/12',
      iban: 'CH9300762011623852957',
      bic: null,
      signed_on: '2020-06-01',
    });
    expect(rows.get(ids.accented ?? 0)).toMatchObject({ rum: 'Reference-Ete', iban: '', bic: null });
    // Never signed in the future.
    expect((rows.get(ids.future ?? 0)?.signed_on ?? '') <= new Date().toISOString().slice(0, 10)).toBe(true);
  });

  it('skips references that are not SEPA text, repeats, empty ones and deleted subscribers', async () => {
    const rows = await mandatesOf();
    for (const name of ['invalid', 'tooLong', 'second', 'none', 'hidden']) {
      expect(rows.has(ids[name] ?? 0), name).toBe(false);
    }
    expect(rows.get(ids.first ?? 0)?.rum).toBe('SHARED-1');
    // The records keep their reference.
    const [kept] = await queryRows<{ rum: string }>(
      database.db,
      sql`select rum from subscribers where id = ${ids.invalid}`,
    );
    expect(kept?.rum).toBe('RUM_42#');
  });

  it('takes the latest gift since the signature as the last collection of a direct-debit payer', async () => {
    const rows = await mandatesOf();
    expect(rows.get(ids.payer ?? 0)?.last_collected_on).toBe('2024-05-03');
    expect(rows.get(ids.cheque ?? 0)?.last_collected_on).toBeNull();
  });

  it('lets the database refuse what is not a SEPA reference, a repeated one, or an unknown status', async () => {
    const refused = async (statement: ReturnType<typeof sql>) => {
      try {
        await database.db.execute(statement);
      } catch {
        return true;
      }
      return false;
    };
    const insert = (rum: string, status = 'active') =>
      sql`insert into mandates (subscriber_id, rum, iban, signed_on, type, status)
          values (${ids.none}, ${rum}, 'FR7630006000011234567890189', '2025-01-01', 'recurring', ${status})`;
    expect(await refused(insert('RUM_1'))).toBe(true);
    expect(await refused(insert('/RUM'))).toBe(true);
    expect(await refused(insert('SHARED-1'))).toBe(true);
    expect(await refused(insert('NEW-1', 'paused'))).toBe(true);
    expect(await refused(insert("NEW-2 (ok) n'1 +?:.,"))).toBe(false);
  });
});
