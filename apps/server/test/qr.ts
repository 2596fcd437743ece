import { createCanvas } from '@napi-rs/canvas';
import jsQR from 'jsqr';
import { openPdf } from './pdf-text.ts';

/**
 * The text of the QR code drawn on page `pageNumber` of a PDF, read as a phone would: the page is
 * rendered to pixels (pdf.js on a canvas, at twice 72 dpi) and decoded (jsQR). Undefined when none.
 */
export async function readQrCode(pdf: Buffer | Uint8Array, pageNumber = 1): Promise<string | undefined> {
  const document = await openPdf(pdf);
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
