import type { Import, ImportDryRun } from '@back-office/contract/imports';
import { expect } from 'vitest';
import type { TestApi } from './api.ts';
import { bearer, login, type TestContext } from './context.ts';

/** A multipart/form-data body with the given fields and one file. */
export function multipart(fields: Record<string, string>, file?: { name: string; bytes: Buffer }) {
  const boundary = `----import-test-${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** `POST /api/imports` of one file as the Administrator (or `token`'s user); the raw answer. */
export async function upload(
  ctx: TestContext,
  name: string,
  bytes: Buffer,
  kind = 'subscribers',
  token?: string,
) {
  const { payload, contentType } = multipart({ kind }, { name, bytes });
  const idToken = token ?? (await login(ctx)).id_token;
  return ctx.app.inject({
    method: 'POST',
    url: '/api/imports',
    headers: { ...bearer(idToken), 'content-type': contentType },
    payload,
  });
}

/** {@link upload} that must answer 201; the import. */
export async function uploaded(ctx: TestContext, name: string, bytes: Buffer, kind = 'subscribers') {
  const response = await upload(ctx, name, bytes, kind);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Import;
}

/** A UTF-8 CSV file of `lines`. */
export const csv = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');

/** `POST /api/imports/{id}/dry-run` that must answer 200. */
export async function dryRun(api: TestApi, id: number, query = '') {
  return api.expectStatus<ImportDryRun>(200, 'POST', `/api/imports/${id}/dry-run${query}`);
}

/** Commits with `decisions`, runs the commit job, and answers the import as it then is. */
export async function commitAndRun(
  ctx: TestContext,
  api: TestApi,
  id: number,
  decisions: Array<{ row: number; action: string }> = [],
) {
  const queued = await api.expectStatus<Import>(202, 'POST', `/api/imports/${id}/commit`, { decisions });
  expect(queued.status).toBe('queued');
  await ctx.app.jobs.runDue();
  return api.expectStatus<Import>(200, 'GET', `/api/imports/${id}`);
}
