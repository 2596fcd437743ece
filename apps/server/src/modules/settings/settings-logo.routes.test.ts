import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { pdfImageCounts, pdfPages } from '../../../test/pdf-text.ts';

const ctx = useTestApp();

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A blank black-and-white PNG of `width` × `height` built by hand (1 bit a pixel, zlib-compressed), so
 * a 10,000 × 10,000 image weighs a few kilobytes on disk: the shape of a decompression bomb.
 */
function blankPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(1, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const row = 1 + Math.ceil(width / 8); // filter byte, then the pixels
  const pixels = deflateSync(Buffer.alloc(row * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const dataUrl = (type: 'png' | 'jpeg', bytes: Buffer) =>
  `data:image/${type};base64,${bytes.toString('base64')}`;

function decodeDataUrl(logo: string): Buffer {
  return Buffer.from(logo.replace(/^data:image\/(png|jpeg);base64,/, ''), 'base64');
}

async function saveLogo(logo: string) {
  const admin = bearer((await login(ctx)).id_token);
  const response = await ctx.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: admin,
    payload: { ...(await ctx.app.inject({ url: '/api/settings', headers: admin })).json<object>(), logo },
  });
  const stored = (await ctx.app.inject({ url: '/api/settings', headers: admin })).json().logo as
    | string
    | null;
  return { response, stored };
}

describe('organisation logo limits', () => {
  it('refuses a 10,000 × 10,000 PNG of a few kilobytes from its header, before decoding it', async () => {
    const bomb = blankPng(10_000, 10_000);
    expect(bomb.length).toBeLessThan(100_000);
    const { response, stored } = await saveLogo(dataUrl('png', bomb));
    expect(response.statusCode).toBe(400);
    // The dimensions message (not "damaged") shows the header check refused it, not a decoder.
    expect(response.json().errors).toEqual([
      { path: 'logo', message: 'The logo must be at most 2000 × 2000 pixels.' },
    ]);
    expect(stored).toBeNull();
  });

  it('refuses a PNG one pixel too wide (2,001 × 10)', async () => {
    const { response } = await saveLogo(dataUrl('png', blankPng(2001, 10)));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({
      path: 'logo',
      message: 'The logo must be at most 2000 × 2000 pixels.',
    });
  });

  it('refuses a JPEG over 2,000 pixels high', async () => {
    const tall = await sharp({ create: { width: 10, height: 2400, channels: 3, background: '#ffffff' } })
      .jpeg()
      .toBuffer();
    const { response } = await saveLogo(dataUrl('jpeg', tall));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].path).toBe('logo');
  });

  it('accepts a 2,000 × 2,000 PNG and stores it re-encoded, at the same size', async () => {
    const original = blankPng(2000, 2000);
    const { response, stored } = await saveLogo(dataUrl('png', original));
    expect(response.statusCode).toBe(200);
    expect(stored).toMatch(/^data:image\/png;base64,/);
    const bytes = decodeDataUrl(stored ?? '');
    expect(bytes.equals(original)).toBe(false);
    const metadata = await sharp(bytes).metadata();
    expect(metadata).toMatchObject({ format: 'png', width: 2000, height: 2000 });
  });

  it('accepts a JPEG and stores it re-encoded without its metadata', async () => {
    const original = await sharp({ create: { width: 300, height: 120, channels: 3, background: '#2a6f97' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'hidden payload', ImageDescription: '<script>alert(1)</script>' } })
      .toBuffer();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const { response, stored } = await saveLogo(dataUrl('jpeg', original));
    expect(response.statusCode).toBe(200);
    expect(stored).toMatch(/^data:image\/jpeg;base64,/);
    const bytes = decodeDataUrl(stored ?? '');
    expect(bytes.equals(original)).toBe(false);
    const metadata = await sharp(bytes).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 300, height: 120 });
    expect(metadata.exif).toBeUndefined();
    expect(bytes.includes('hidden payload')).toBe(false);
  });

  it.each([
    [
      'a PNG labelled as JPEG',
      () => dataUrl('jpeg', blankPng(10, 10)),
      'The logo must be a PNG or JPEG image.',
    ],
    [
      'a GIF labelled as PNG',
      () => dataUrl('png', Buffer.from('GIF89a\x01\x00\x01\x00')),
      'The logo must be a PNG or JPEG image.',
    ],
    [
      'a PNG whose pixels are cut off',
      () => dataUrl('png', blankPng(50, 50).subarray(0, 45)),
      'The logo image is damaged: save it again as PNG or JPEG.',
    ],
  ])('still refuses %s with a 400 naming the logo', async (_label, logo, message) => {
    const { response, stored } = await saveLogo(logo());
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([{ path: 'logo', message }]);
    expect(stored).toBeNull();
  });

  it('leaves off documents a logo stored before the limits, instead of decoding it for each one', async () => {
    const admin = bearer((await login(ctx)).id_token);
    await saveLogo(dataUrl('png', blankPng(10, 10)));
    // As a database from before the limits may hold it: written directly, past the checks.
    await ctx.database.db.execute(
      `update organisation_settings set logo = '${dataUrl('png', blankPng(10_000, 10_000))}'` as never,
    );
    const [donor] = await insertSubscribers(ctx, [buildSubscriber({ lastName: 'Favre' })]);
    const gift = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/donations',
        headers: admin,
        payload: { subid: donor?.id, amount: 30, donationDate: '2026-02-02' },
      })
    ).json() as { id: number };
    const receipt = await ctx.app.inject({ url: `/api/donations/receipt/${gift.id}`, headers: admin });
    expect(receipt.statusCode).toBe(200);
    expect((await pdfPages(receipt.rawPayload))[0]).toContain('FAVRE');
    // Its one image is the QR code of its check: no logo.
    expect(await pdfImageCounts(receipt.rawPayload)).toEqual([1]);
  });
});
