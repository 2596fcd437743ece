/**
 * What the backup tests share (db-backup.test.ts on PGlite, system/db-backup-postgres.test.ts on
 * PostgreSQL): a database filled with representative data through the API and the demo seeders, and a
 * fingerprint of every table's rows and every sequence to compare a restored database with its source.
 */
import { sql } from 'drizzle-orm';
import { seedDemoSubscribers } from '../scripts/seed-demo.ts';
import { seedDemoDonations } from '../scripts/seed-demo-donations.ts';
import { seedDemoSales } from '../scripts/seed-demo-sales.ts';
import { buildApp } from '../src/app.ts';
import { type DatabaseHandle, type Executor, queryRows } from '../src/db/client.ts';
import { prepareDatabase } from '../src/db/seed.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, testConfig } from './context.ts';
import { buildSubscriber } from './factories.ts';

/** Per table (`schema.table`): row count and md5 of its rows as text, sorted; per sequence: its last value. */
export type DatabaseFingerprint = Record<string, string>;

/**
 * Fingerprints every table outside PostgreSQL's own schemas (the application's in `public`, Drizzle's
 * `drizzle.__drizzle_migrations`) as `<rows> <md5 of the rows' text, '|'-joined in text order>`, and every
 * sequence as `sequence <last_value>`, so that two databases with the same rows compare equal.
 */
export async function fingerprintDatabase(db: Executor): Promise<DatabaseFingerprint> {
  const tables = await queryRows<{ schemaname: string; tablename: string }>(
    db,
    sql`select schemaname, tablename from pg_tables
         where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`,
  );
  const fingerprint: DatabaseFingerprint = {};
  for (const { schemaname, tablename } of tables) {
    const [row] = await queryRows<{ rows: number; digest: string | null }>(
      db,
      sql.raw(
        `select count(*)::int as rows, md5(string_agg(t::text, '|' order by t::text)) as digest
           from "${schemaname}"."${tablename}" t`,
      ),
    );
    fingerprint[`${schemaname}.${tablename}`] = `${row?.rows} ${row?.digest ?? '-'}`;
  }
  const sequences = await queryRows<{ schemaname: string; sequencename: string; last_value: string | null }>(
    db,
    sql`select schemaname, sequencename, last_value::text from pg_sequences
         where schemaname not in ('pg_catalog', 'information_schema')`,
  );
  for (const { schemaname, sequencename, last_value } of sequences) {
    fingerprint[`${schemaname}.${sequencename}`] = `sequence ${last_value ?? 'unused'}`;
  }
  return fingerprint;
}

/** The row count of `table` in a fingerprint (`public.` by default). */
export function rowsIn(fingerprint: DatabaseFingerprint, table: string): number {
  const key = table.includes('.') ? table : `public.${table}`;
  return Number(fingerprint[key]?.split(' ')[0] ?? Number.NaN);
}

/**
 * Migrates `database` (first Administrator {@link ADMIN_EMAIL} / {@link ADMIN_PASSWORD}) and fills it
 * the way staff would: organisation settings, a User account (with its emailed link in the outbox), a
 * subscriber with history, a donation with an issued tax receipt (number allocated), a sale through the
 * API (stock moved, reference allocated); then generated subscribers, donations and sales.
 */
export async function fillRepresentativeData(database: DatabaseHandle) {
  await prepareDatabase(database, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD });
  const app = await buildApp({ config: testConfig(), database, webDistDir: '/nonexistent' });
  try {
    const signedIn = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    const headers = { authorization: `Bearer ${(signedIn.json() as { id_token: string }).id_token}` };
    const call = async (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object) => {
      const response = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      if (response.statusCode >= 300)
        throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      return response;
    };
    await call('PUT', '/api/settings', {
      organisationName: 'Les Amis du Léman',
      address: '12 rue du Lac\n74200 Thonon-les-Bains',
      emailSenderName: 'Les Amis du Léman',
      emailSenderAddress: 'contact@amis-leman.org',
      sirenOrRna: 'W741000000',
      sepaCreditorId: 'FR12ZZZ123456',
      signatoryName: 'Claire Dubois',
      signatoryTitle: 'Trésorière',
      organisationPurpose: 'Protection du lac',
      receiptStatement: 'Association d’intérêt général',
      invoiceFooter: 'Association loi 1901',
      paymentTermsText: 'Paiement à réception.',
      logo: null,
    });
    await call('POST', '/api/users', { fullName: 'Agnès Dupont', email: 'agnes@example.org', role: 'User' });
    const subscriber = (
      await call(
        'POST',
        '/api/subscribers',
        buildSubscriber({ firstName: 'Zoé', lastName: 'Martin', iban: 'FR7630006000011234567890189' }),
      )
    ).json() as { id: number };
    const gift = (
      await call('POST', '/api/donations', {
        subid: subscriber.id,
        amount: 125.5,
        donationDate: '2026-03-14',
      })
    ).json() as { id: number };
    await call('GET', `/api/donations/receipt/${gift.id}`);
    const product = (
      await call('POST', '/api/products', {
        name: 'Agenda 2026',
        euroPrice: 12.5,
        swissPrice: 14,
        active: true,
        currentStock: 10,
        minStockAlert: 2,
      })
    ).json() as { id: number };
    await call('POST', '/api/sales', {
      subscriberId: subscriber.id,
      fullName: 'Mme Zoé Martin',
      association: '',
      currencySymbol: '€',
      discountPercentage: 0,
      donation: 5,
      deliveryCharge: 3.5,
      includeThanks: true,
      includePaymentTerms: false,
      paymentTermDays: 30,
      swissSale: false,
      addr1: '1 rue du Lac',
      addr2: '',
      addr3: '',
      town: 'Lyon',
      postcode: '69001',
      orderNumber: 'BC-17',
      deliveryAddress: '',
      country: 'France',
      notes: 'Livré en main propre',
      items: [
        {
          productId: product.id,
          productName: 'Agenda 2026',
          quantity: 3,
          euroUnitPrice: 12.5,
          swissUnitPrice: 14,
          unitPrice: 12.5,
        },
      ],
    });
  } finally {
    await app.close();
  }
  await seedDemoSubscribers(database.db, { target: 60 });
  await seedDemoDonations(database.db, { target: 200 });
  await seedDemoSales(database.db, { target: 40 });
}
