import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { TDocumentDefinitions } from 'pdfmake/interfaces';

/** `Content-Type` of a PDF. */
export const PDF_CONTENT_TYPE = 'application/pdf';

const require = createRequire(import.meta.url);
// pdfmake's server build exports one configured instance through `module.exports`, which an ESM
// namespace import cannot see: load it with require.
const pdfmake = require('pdfmake') as typeof import('pdfmake') & {
  virtualfs: { writeFileSync: (name: string, content: Buffer) => void };
};

/** The Roboto files shipped inside pdfmake, by pdfmake's style names. */
const ROBOTO_FILES = {
  normal: 'Roboto-Regular.ttf',
  bold: 'Roboto-Medium.ttf',
  italics: 'Roboto-Italic.ttf',
  bolditalics: 'Roboto-MediumItalic.ttf',
} as const;

let configured = false;

/**
 * Sets pdfmake up once per process: Roboto read from disk into pdfmake's in-memory file system, and
 * access policies that refuse every URL and every local file, so nothing in a document (a logo, a
 * font name) can make the server fetch or read anything.
 */
function configure() {
  if (configured) return;
  const fontDir = path.join(path.dirname(require.resolve('pdfmake/package.json')), 'fonts', 'Roboto');
  for (const file of Object.values(ROBOTO_FILES)) {
    pdfmake.virtualfs.writeFileSync(file, readFileSync(path.join(fontDir, file)));
  }
  pdfmake.setFonts({ Roboto: { ...ROBOTO_FILES } });
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  configured = true;
}

/**
 * Renders a pdfmake document definition (Roboto is the default font; images must be data URLs) to the
 * bytes of a PDF. Used by the mandate letter, receipts and invoices.
 * @throws when the definition is invalid (e.g. an image that is not a PNG or JPEG).
 */
export async function renderPdf(document: TDocumentDefinitions): Promise<Buffer> {
  configure();
  return pdfmake
    .createPdf({ ...document, defaultStyle: { font: 'Roboto', ...document.defaultStyle } })
    .getBuffer();
}

let lastImageCheck: { src: string; usable: boolean } | undefined;

/**
 * True when pdfmake can draw `src` (a PNG or JPEG data URL): a file that only starts like a PNG is
 * refused. Documents call it before placing a logo, so a damaged logo leaves a blank where it would be
 * rather than failing the document; the settings call it before saving one. The last answer is kept.
 */
export async function isUsableImage(src: string | null | undefined): Promise<boolean> {
  if (!src) return false;
  if (lastImageCheck?.src === src) return lastImageCheck.usable;
  let usable = true;
  try {
    await renderPdf({ content: [{ image: src, width: 8 }] });
  } catch {
    usable = false;
  }
  lastImageCheck = { src, usable };
  return usable;
}
