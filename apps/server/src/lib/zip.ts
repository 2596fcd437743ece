import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';
import { ZipFile } from 'yazl';

/**
 * yazl checksums every entry with its dependency buffer-crc32, a JavaScript loop over each byte:
 * 1.9 s of the event loop for the 850 MB sheet of a million subscribers, where zlib's CRC-32 (the same
 * checksum, ISO 3309 as the ZIP format asks, computed natively) takes 0.2 s. yazl has no option to take
 * another, so its copy of `unsigned(buffer, previous)` is pointed at zlib's; `zip.test.ts` checks
 * that yazl still reaches it, and that the written checksums are right.
 */
const yazlRequire = createRequire(createRequire(import.meta.url).resolve('yazl'));
const yazlCrc32 = yazlRequire('buffer-crc32') as {
  unsigned: (buffer: Buffer | string, previous?: number) => number;
};
/** The CRC-32 yazl's entries get: of `buffer` (bytes, or a string as UTF-8), continuing `previous`. */
export function zipCrc32(buffer: Buffer | string, previous = 0): number {
  return crc32(buffer, previous);
}
yazlCrc32.unsigned = zipCrc32;

/** yazl's ZIP writer (APPNOTE 6.3, ZIP64 past 4 GB), its checksums computed by zlib. */
export { ZipFile };
