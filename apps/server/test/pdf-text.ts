import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** pdf.js's own copies of the PDF standard fonts (Helvetica on the QR-bill), to draw their text. */
const STANDARD_FONTS = `${path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))}/standard_fonts/`;

/** A PDF opened by pdf.js as the tests read it: the standard fonts from pdf.js's copies, no eval. */
export function openPdf(pdf: Buffer | Uint8Array) {
  return getDocument({
    data: new Uint8Array(pdf),
    useSystemFonts: false,
    standardFontDataUrl: STANDARD_FONTS,
    isEvalSupported: false,
  }).promise;
}

/** The text of each page of a PDF, items joined by spaces (documents are read back as text, never compared as bytes). */
export async function pdfPages(pdf: Buffer | Uint8Array): Promise<string[]> {
  const document = await openPdf(pdf);
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' '),
    );
  }
  await document.destroy();
  return pages;
}

/**
 * The text items of page `pageNumber` of a PDF with where each starts, in points from the page's bottom
 * left corner (PDF's own coordinates), and the page's height.
 */
export async function pdfTextPositions(
  pdf: Buffer | Uint8Array,
  pageNumber: number,
): Promise<{ height: number; items: Array<{ text: string; x: number; y: number }> }> {
  const document = await openPdf(pdf);
  try {
    const page = await document.getPage(pageNumber);
    const content = await page.getTextContent();
    const items = content.items.flatMap((item) =>
      'str' in item && item.str.trim()
        ? [{ text: item.str, x: Number(item.transform[4]), y: Number(item.transform[5]) }]
        : [],
    );
    return { height: page.view[3] ?? 0, items };
  } finally {
    await document.destroy();
  }
}

/** How many raster images each page of a PDF paints (a logo, a signature, a QR code). */
export async function pdfImageCounts(pdf: Buffer | Uint8Array): Promise<number[]> {
  const document = await openPdf(pdf);
  const counts: number[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const operators = await (await document.getPage(number)).getOperatorList();
    counts.push(operators.fnArray.filter((operator) => operator === OPS.paintImageXObject).length);
  }
  await document.destroy();
  return counts;
}

/** The title a PDF gives in its document information (what a viewer shows in its window's title). */
export async function pdfTitle(pdf: Buffer | Uint8Array): Promise<string | undefined> {
  const document = await openPdf(pdf);
  const { info } = await document.getMetadata();
  await document.destroy();
  return (info as { Title?: string }).Title;
}
