import { describe, expect, it } from 'vitest';
import { pdfImageCounts } from '../../../test/pdf-text.ts';
import { readQrCode } from '../../../test/qr.ts';
import { renderPdf } from './pdf-renderer.ts';
import { qrCodeImage } from './qr-code-image.ts';

describe('qrCodeImage', () => {
  it('draws a code that a phone reads back, at each error correction level, as one image of the asked size', async () => {
    const link = 'https://back-office.example.org/verify/receipt/2026000123?h=0123456789abcdef';
    // An EPC069-12 payload: line breaks and accents, at level M.
    const payment =
      'BCD\n002\n1\nSCT\n\nAssociation Les Éditions\nFR7630006000011234567890189\nEUR12.50\n\n\nFacture 42';
    for (const [text, errorCorrection] of [
      [link, 'L'],
      [payment, 'M'],
    ] as const) {
      const image = qrCodeImage(text, { size: 90, errorCorrection });
      expect(image).toMatchObject({ width: 90, height: 90 });
      const pdf = await renderPdf({ content: [image] });
      expect(await pdfImageCounts(pdf)).toEqual([1]);
      expect(await readQrCode(pdf)).toBe(text);
    }
  });

  it('refuses a text too long for any QR code', () => {
    expect(() => qrCodeImage('x'.repeat(8000), { size: 72 })).toThrow();
  });
});
