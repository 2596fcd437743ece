import type { ContentImage } from 'pdfmake/interfaces';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';

/**
 * Image pixels per QR module: a viewer or printer that smooths an enlarged image blurs only the
 * outer pixel of each module.
 */
const PIXELS_PER_MODULE = 4;

/** QR error correction levels (ISO/IEC 18004): L recovers 7 % of the symbol, M 15 %. */
export type QrErrorCorrection = 'L' | 'M';

/**
 * A QR code (ISO/IEC 18004, encoded by `qrcode`) for a pdfmake document: a black-on-white grayscale
 * PNG (about 2 KB), `size` points square, with no quiet zone (the caller leaves white around it, as
 * pdfmake's own `qr` node did). pdfmake's `qr` node draws every dark module as a vector rectangle, and
 * pdfmake's cost per vector made a receipt's 500 modules 3.5 ms of CPU, a sixth of the receipt; the
 * image takes about 1 ms. Used by the receipts' check code (part 2 §7 Receipts) and the invoices' EPC
 * code (EPC069-12).
 *
 * @param text what the code holds (a URL, an EPC payload).
 * @param options.size width and height in PDF points (1/72 inch).
 * @param options.errorCorrection `L` (pdfmake's default, kept for the receipts) or `M` (EPC069-12).
 * @throws when `text` is too long for a QR code at that level.
 */
export function qrCodeImage(
  text: string,
  { size, errorCorrection = 'L' }: { size: number; errorCorrection?: QrErrorCorrection },
): ContentImage {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: errorCorrection });
  const width = modules.size * PIXELS_PER_MODULE;
  const png = new PNG({ width, height: width, colorType: 0, inputColorType: 0, inputHasAlpha: false });
  const pixels = Buffer.alloc(width * width, 0xff);
  for (let row = 0; row < modules.size; row += 1) {
    const top = row * PIXELS_PER_MODULE * width;
    for (let column = 0; column < modules.size; column += 1) {
      if (!modules.get(row, column)) continue;
      const left = top + column * PIXELS_PER_MODULE;
      pixels.fill(0, left, left + PIXELS_PER_MODULE);
    }
    // The module row's first pixel row, repeated down the module's height.
    for (let copy = 1; copy < PIXELS_PER_MODULE; copy += 1) {
      pixels.copy(pixels, top + copy * width, top, top + width);
    }
  }
  png.data = pixels;
  // No PNG row filter: pngjs tries all five on every row by default, for about 1 KB less, and that
  // doubled the time of the whole image.
  const encoded = PNG.sync.write(png, {
    colorType: 0,
    inputColorType: 0,
    inputHasAlpha: false,
    filterType: 0,
  });
  return { image: `data:image/png;base64,${encoded.toString('base64')}`, width: size, height: size };
}
