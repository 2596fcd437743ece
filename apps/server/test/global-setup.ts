import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { fromPglite, newPglite } from '../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a PGlite data directory with every migration applied; empty on PostgreSQL. */
    pgliteTemplate: string;
  }
}

/** How many PostgreSQL databases the test files may use at once: one per worker. */
export const POSTGRES_WORKER_DATABASES = Math.max(2, availableParallelism());

/** The database of test worker `poolId` (1, 2 …): `TEST_DATABASE_URL`'s database with `_w<poolId>`. */
export function workerDatabaseUrl(baseUrl: string, poolId: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname}_w${poolId}`;
  return url.toString();
}

/** Creates one empty database per worker next to `baseUrl`'s (dropping any left by an earlier run). */
async function createWorkerDatabases(baseUrl: string) {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    for (let poolId = 1; poolId <= POSTGRES_WORKER_DATABASES; poolId += 1) {
      const name = new URL(workerDatabaseUrl(baseUrl, String(poolId))).pathname.slice(1);
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.query(`create database "${name}"`);
    }
  } finally {
    await client.end();
  }
}

/**
 * Before the test files start. On PGlite: migrates one database and hands its data directory to them,
 * so each file loads the tarball instead of running every migration again. On PostgreSQL
 * (`TEST_DATABASE_URL`): creates one database per worker.
 */
export default async function setup(project: TestProject) {
  const postgresUrl = process.env.TEST_DATABASE_URL;
  if (postgresUrl) {
    // On PostgreSQL too the files run side by side, each worker on a database of its own.
    await createWorkerDatabases(postgresUrl);
    project.provide('pgliteTemplate', '');
    return;
  }
  const client = newPglite();
  await client.waitReady;
  await fromPglite(client).migrate();
  const dir = await mkdtemp(path.join(tmpdir(), 'back-office-pglite-'));
  const file = path.join(dir, 'template.tar');
  await writeFile(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  await client.close();
  project.provide('pgliteTemplate', file);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
