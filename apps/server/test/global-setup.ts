import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { fromPglite } from '../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a PGlite data directory with every migration applied; empty on PostgreSQL. */
    pgliteTemplate: string;
  }
}

/**
 * Migrates one PGlite database before the test files start and hands its data directory to them:
 * each file loads the tarball instead of running every migration again.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    return;
  }
  const client = new PGlite();
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
