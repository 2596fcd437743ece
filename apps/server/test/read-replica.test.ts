/**
 * DATABASE_REPLICA_URL (docs/deployment.md): the exports and the dashboard read the read replica, every
 * search, record and write the primary. The "replica" here is a second database holding other rows, so
 * that each answer shows where it was read.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type DatabaseHandle, fromPglite, newPglite } from '../src/db/client.ts';
import { prepareDatabase } from '../src/db/seed.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, login, testConfig, useTestApp } from './context.ts';
import { readSheet } from './xlsx.ts';

const ctx = useTestApp();

/** A database with one Swiss subscriber and one gift that the primary does not have. */
async function openReplica(): Promise<DatabaseHandle> {
  const replica = fromPglite(newPglite());
  await replica.migrate();
  await prepareDatabase(replica, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD });
  await replica.db.execute(sql`
    insert into subscribers (first_name, last_name, currency_id, country_id, search_first_name, search_last_name)
    values ('Seule', 'Réplique', 1, 2, 'seule', 'replique')`);
  await replica.db.execute(sql`
    insert into donations (subscriber_id, amount, currency_id, donation_date, notes, added_by)
    select id, 42, 1, '2026-01-05', 'Sur la réplique', 'Import' from subscribers`);
  return replica;
}

describe('a read replica', () => {
  it('serves the exports and the dashboard; searches and records stay on the primary', async () => {
    const replica = await openReplica();
    try {
      const app = await ctx.build({ readDatabase: replica });
      const headers = bearer((await login(ctx)).id_token);
      const get = (url: string) => app.inject({ url, headers });

      expect((await get('/api/dash/subs')).json()).toEqual({ labels: ['Suisse'], data: [1] });
      const exported = await get('/api/donations/export');
      expect(exported.statusCode).toBe(200);
      const { rows } = await readSheet(exported.rawPayload);
      expect(rows[1]).toEqual(expect.arrayContaining(['Seule', 'Réplique', 'Suisse', 42]));

      expect((await get('/api/subscribers/?name=replique')).json()).toMatchObject({ count: 0 });
      expect((await get('/api/donations')).json()).toMatchObject({ count: 0 });
      // Without a replica, the same app reads the primary everywhere.
      expect((await ctx.app.inject({ url: '/api/dash/subs', headers })).json()).toEqual({
        labels: [],
        data: [],
      });
    } finally {
      await replica.close();
    }
  });

  it('needs DATABASE_URL: the embedded database has no replica', () => {
    expect(() => testConfig({ DATABASE_REPLICA_URL: 'postgres://replica.example/back_office' })).toThrow(
      'DATABASE_REPLICA_URL: needs DATABASE_URL (the embedded database has no replica)',
    );
    expect(
      testConfig({
        DATABASE_URL: 'postgres://primary.example/back_office',
        DATABASE_REPLICA_URL: 'postgres://replica.example/back_office',
      }).databaseReplicaUrl,
    ).toBe('postgres://replica.example/back_office');
    expect(() => testConfig({ DATABASE_REPLICA_URL: 'mysql://replica' })).toThrow(
      'DATABASE_REPLICA_URL: must be a postgres:// or postgresql:// URL',
    );
  });
});
