import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { ZipFile, zipCrc32 } from './zip.ts';

describe('ZipFile', () => {
  it('checksums entries with zlib: yazl reaches zipCrc32', () => {
    const yazlRequire = createRequire(createRequire(import.meta.url).resolve('yazl'));
    expect(yazlRequire('buffer-crc32').unsigned).toBe(zipCrc32);
    // The CRC-32 of ISO 3309 (check value of "123456789").
    expect(zipCrc32('123456789')).toBe(0xcbf43926);
    expect(zipCrc32('6789', zipCrc32('12345'))).toBe(0xcbf43926);
  });

  it('writes archives whose checksums a reader verifies, for buffers and streams', async () => {
    const zip = new ZipFile();
    const sheet = 'Zoé, Müller & Cie; '.repeat(50_000);
    zip.addBuffer(Buffer.from('<xml/>'), 'small.xml');
    zip.addReadStream(Readable.from([sheet.slice(0, 1000), sheet.slice(1000)]), 'large.xml', {
      compressionLevel: 1,
    });
    zip.end();
    const archive = await JSZip.loadAsync(await buffer(zip.outputStream), { checkCRC32: true });
    expect(await archive.file('small.xml')?.async('string')).toBe('<xml/>');
    expect(await archive.file('large.xml')?.async('string')).toBe(sheet);
  });
});
