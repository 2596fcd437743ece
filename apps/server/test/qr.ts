import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import jsQR from 'jsqr';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** pdf.js's own copies of the PDF standard fonts (Helvetica on the QR-bill), to draw their text. */
const STANDARD_FONTS = `${path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))}/standard_fonts/`;

/**
 * The text of the QR code drawn on page `pageNumber` of a PDF, read as a phone would: the page is
 * rendered to pixels (pdf.js on a canvas, at twice 72 dpi) and decoded (jsQR). Undefined when none.
 */
export async function readQrCode(pdf: Buffer | Uint8Array, pageNumber = 1): Promise<string | undefined> {
  const document = await getDocument({
    data: new Uint8Array(pdf),
    useSystemFonts: false,
    standardFontDataUrl: STANDARD_FONTS,
    isEvalSupported: false,
  }).promise;
  try {
    const page = await document.getPage(pageNumber);
    const viewport = page.getViewport({ scale: 2 });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(new Uint8ClampedArray(pixels.data), canvas.width, canvas.height)?.data;
  } finally {
    await document.destroy();
  }
}
