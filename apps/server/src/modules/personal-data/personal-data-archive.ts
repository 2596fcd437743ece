import { ZipFile } from '../../lib/zip.ts';

/** One file of an archive: its path inside the ZIP and its bytes or text. */
export type ArchiveEntry = { name: string; content: Buffer | string };

/**
 * The ZIP (deflated, with `mtime` as every entry's date) of `entries`, in memory: the personal-data
 * archive of one subscriber is a few JSON files and their documents (docs/decisions/019).
 */
export function zipArchive(entries: ArchiveEntry[], mtime: Date): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries) {
    const content = typeof entry.content === 'string' ? Buffer.from(entry.content, 'utf8') : entry.content;
    zip.addBuffer(content, entry.name, { mtime });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** Pretty JSON (2 spaces, final newline): the archive is meant to be read by people too. */
export const jsonFile = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
