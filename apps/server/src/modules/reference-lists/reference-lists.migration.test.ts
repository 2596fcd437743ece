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
import { SEEDED_CURRENCIES, seededCountries } from './reference-lists.seed.ts';

/**
 * Migration 0037 on a database seeded before countries and currencies had ISO codes: it gives the
 * seeded ones the codes a new database gets from the seed, by name and case-insensitively. Runs on an
 * in-memory PGlite, or on a database of its own next to `TEST_DATABASE_URL`'s when that is set.
 */

const MIGRATION = '0037_country_codes_and_organisation_address';

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
  url.pathname = `${url.pathname}_m0037_${process.env.VITEST_POOL_ID ?? '1'}`;
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

  beforeAll(async () => {
    database = await openEmptyDatabase();
    olderMigrations = await migrationsBefore(MIGRATION);
    await database.migrate(olderMigrations);
    // The reference data as the seed loaded it before this migration: names, no codes.
    for (const country of seededCountries()) {
      await database.db.execute(
        sql`insert into countries (name, "order") values (${country.name}, ${country.order})`,
      );
    }
    for (const currency of SEEDED_CURRENCIES) {
      await database.db.execute(
        sql`insert into currencies (name, symbol) values (${currency.name}, ${currency.symbol})`,
      );
    }
    // What staff did since: a change of case, a renamed country, a country of their own, a renamed
    // currency that still has the euro's symbol, and a currency of their own.
    await database.db.execute(sql`update countries set name = 'ITALIE' where name = 'Italie'`);
    await database.db.execute(sql`update countries set name = 'Angleterre' where name = 'Royaume-Uni'`);
    await database.db.execute(sql`insert into countries (name) values ('Atlantide')`);
    await database.db.execute(sql`update currencies set name = 'Euro (EUR)' where name = 'EURO'`);
    await database.db.execute(sql`insert into currencies (name, symbol) values ('Livre sterling', '£')`);
    await database.db.execute(
      sql`insert into organisation_settings (id, organisation_name) values (1, 'Amis')`,
    );
    await database.migrate(MIGRATIONS_FOLDER);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    if (olderMigrations) await rm(olderMigrations, { recursive: true, force: true });
  });

  it('gives the seeded countries the codes of the seed, by name whatever the case', async () => {
    const rows = await queryRows<{ name: string; iso_code: string | null }>(
      database.db,
      sql`select name, iso_code from countries`,
    );
    const codeOf = new Map(rows.map((row) => [row.name, row.iso_code]));
    expect(
      ['France', 'Suisse', 'Belgique', 'Luxembourg', 'Allemagne', 'ITALIE'].map((name) => codeOf.get(name)),
    ).toEqual(['FR', 'CH', 'BE', 'LU', 'DE', 'IT']);
    const renamed = new Set(['Italie', 'Royaume-Uni']);
    for (const country of seededCountries().filter((seeded) => !renamed.has(seeded.name))) {
      expect(codeOf.get(country.name), country.name).toBe(country.isoCode);
    }
    expect(codeOf.get('Angleterre')).toBeNull();
    expect(codeOf.get('Atlantide')).toBeNull();
  });

  it('gives the seeded currencies EUR and CHF, the renamed euro by its symbol', async () => {
    const rows = await queryRows<{ name: string; iso_code: string | null }>(
      database.db,
      sql`select name, iso_code from currencies order by id`,
    );
    expect(rows).toEqual([
      { name: 'Euro (EUR)', iso_code: 'EUR' },
      { name: 'Swiss Franc', iso_code: 'CHF' },
      { name: 'Livre sterling', iso_code: null },
    ]);
  });

  it('gives the settings row the defaults of the new fields', async () => {
    const [row] = await queryRows<Record<string, unknown>>(
      database.db,
      sql`select organisation_name, receipt_for_other_countries, address_street, address_building_number,
                 address_postcode, address_town, address_country, signature_image
            from organisation_settings`,
    );
    expect(row).toEqual({
      organisation_name: 'Amis',
      receipt_for_other_countries: 'cerfa',
      address_street: '',
      address_building_number: '',
      address_postcode: '',
      address_town: '',
      address_country: null,
      signature_image: null,
    });
  });

  it('lets the database refuse malformed and duplicate codes', async () => {
    const refused = async (statement: ReturnType<typeof sql>) => {
      try {
        await database.db.execute(statement);
      } catch {
        return true;
      }
      return false;
    };
    expect(await refused(sql`insert into countries (name, iso_code) values ('Minuscule', 'fr')`)).toBe(true);
    expect(await refused(sql`insert into countries (name, iso_code) values ('Double', 'FR')`)).toBe(true);
    expect(
      await refused(sql`insert into currencies (name, symbol, iso_code) values ('Deux', 'x', 'EU')`),
    ).toBe(true);
    expect(await refused(sql`update organisation_settings set address_country = 'che'`)).toBe(true);
    expect(await refused(sql`update organisation_settings set receipt_for_other_countries = 'recu'`)).toBe(
      true,
    );
    // Any number of items without a code.
    expect(await refused(sql`insert into countries (name) values ('Sans code 1'), ('Sans code 2')`)).toBe(
      false,
    );
  });
});
