import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { TDocumentDefinitions } from 'pdfmake/interfaces';
import { drawableLogo } from '../images/logo-image.ts';
import { speedUpStyleLookup } from './style-lookup.ts';

/** `Content-Type` of a PDF. */
export const PDF_CONTENT_TYPE = 'application/pdf';

const require = createRequire(import.meta.url);

type Pdfmake = typeof import('pdfmake') & {
  virtualfs: { writeFileSync: (name: string, content: Buffer) => void };
};

/** The Roboto files shipped inside pdfmake, by pdfmake's style names. */
const ROBOTO_FILES = {
  normal: 'Roboto-Regular.ttf',
  bold: 'Roboto-Medium.ttf',
  italics: 'Roboto-Italic.ttf',
  bolditalics: 'Roboto-MediumItalic.ttf',
} as const;

/** What pdfmake's PDFDocument (a pdfkit document) exposes that the font cache below relies on. */
type PdfKitDocument = {
  /** A new indirect object; a stream's `end(bytes)` deflates them unless `data.Filter` is set. */
  ref: (data?: Record<string, unknown>) => PdfKitStream;
  fontCache: Record<string, Record<string, unknown>>;
  getFontType: (bold: boolean, italics: boolean) => string;
  _fontCount: number;
  _fontFamilies: Record<string, unknown>;
};
type PdfKitStream = { end: (chunk: Uint8Array | string) => void };
type ProvideFont = (this: PdfKitDocument, familyName: string, bold: boolean, italics: boolean) => unknown;
/**
 * pdfkit's EmbeddedFont: one per document (it holds that document's subset), around a parsed font.
 * `layoutCache` maps a word to its shaped glyph run.
 */
type EmbeddedFont = {
  font: unknown;
  id: string;
  document: PdfKitDocument;
  layoutCache?: Record<string, unknown>;
  /** fontkit's subset: the original ids of the glyphs it holds, in the order of their ids in it. */
  subset: { glyphs: number[]; encode: () => Uint8Array };
  /** Shapes `text` and adds its glyphs to the subset (pdfkit calls it for every piece of text). */
  encode: (text: string) => unknown;
  /** Writes the font's objects when the document ends: first its font file, from `subset.encode()`. */
  embed: () => unknown;
  /** Writes the map from the subset's glyphs to their characters (one stream); embed() calls it. */
  toUnicodeCmap: () => PdfKitStream;
};
type EmbeddedFontClass = new (document: PdfKitDocument, font: unknown, id: string) => EmbeddedFont;

/** What of a parsed fontkit font is per document (see documentFont). */
type ParsedFont = { _glyphs: Record<number, unknown>; _layoutEngine: object };

/**
 * A view of a parsed font for one document: its parsed tables are shared, but it has its own glyph
 * cache and layout engine. fontkit keeps each glyph with the characters it was first asked for, and a
 * document's subsetting asks for the parts of composite glyphs (the E of É) with none: shared across
 * documents, that glyph would lose its character in the next document's text layer (MÜLLER read
 * back as MÜLL%R).
 */
function documentFont(parsed: unknown): unknown {
  const font = Object.create(parsed as ParsedFont) as ParsedFont;
  font._glyphs = {};
  const layoutEngineClass = (parsed as ParsedFont)._layoutEngine.constructor as new (font: unknown) => object;
  Object.defineProperty(font, '_layoutEngine', { value: new layoutEngineClass(font) });
  return font;
}

/** Words whose shaping a font keeps across documents before it starts afresh (memory stays bounded). */
const SHAPED_WORDS_KEPT = 20_000;

/** A parsed font shared by every document, with the words shaped in it so far. */
type SharedFont = {
  font: unknown;
  embeddedFontClass: EmbeddedFontClass;
  shapedWords: Record<string, unknown>;
  documentsSinceSizeCheck: number;
};

/**
 * The word-to-glyph-run cache every document's EmbeddedFont of this font uses. Shaping (fontkit's
 * OpenType lookups) was the largest part of a receipt after parsing; most words of a document are its
 * fixed text, the same in every copy. A run is read-only once made, and a document takes from it only
 * each glyph's id, advance width and characters, all fixed when the word was shaped; the glyphs that
 * subsetting creates stay in the document's own glyph cache (documentFont) and never enter a run.
 */
function shapedWordsOf(shared: SharedFont): Record<string, unknown> {
  shared.documentsSinceSizeCheck += 1;
  if (shared.documentsSinceSizeCheck >= 100) {
    shared.documentsSinceSizeCheck = 0;
    if (Object.keys(shared.shapedWords).length > SHAPED_WORDS_KEPT) shared.shapedWords = Object.create(null);
  }
  return shared.shapedWords;
}

/**
 * The characters every document's subset of a font starts with, in this order, whether the document
 * uses them or not: the letters, digits and signs of French, German and Italian text. Two documents
 * whose text uses nothing else then have the same subset, written once (see {@link subsetBytesOf}).
 * Separated by spaces, so that each is shaped alone; "fi" and "fl" for the ligatures of such words.
 */
const SUBSET_SEED = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...'àâäçéèêëîïôöùûüÿœæÀÂÄÇÉÈÊËÎÏÔÖÙÛÜŒÆß',
  ...'.,;:!?\'"()[]-–—/°€%&@+*=«»’…#_',
  'fi',
  'fl',
].join(' ');

/** Subsets already written, by font and glyphs (at most {@link SUBSETS_KEPT}, oldest dropped first). */
const subsetBytes = new Map<string, Uint8Array>();
const SUBSETS_KEPT = 64;

/**
 * The bytes of a subset (fontkit's TrueType subset: its tables for the glyphs it holds, in order),
 * written once for each font and list of glyphs: writing it was a fifth of a receipt's rendering. The
 * bytes depend on nothing else, and pdfkit only copies them into the document.
 */
function subsetBytesOf(fontKey: string, subset: EmbeddedFont['subset'], write: () => Uint8Array) {
  const key = `${fontKey}:${subset.glyphs.join(',')}`;
  const known = subsetBytes.get(key);
  if (known) return known;
  const bytes = write();
  if (subsetBytes.size >= SUBSETS_KEPT) subsetBytes.delete(subsetBytes.keys().next().value as string);
  subsetBytes.set(key, bytes);
  return bytes;
}

/** Deflated font files, by their (cached, so shared) subset bytes. */
const deflatedFontFiles = new WeakMap<Uint8Array, Buffer>();
/** Deflated ToUnicode maps, by their text (at most {@link SUBSETS_KEPT}, oldest dropped first). */
const deflatedMaps = new Map<string, Buffer>();

/** `chunk` deflated, once for each font file and each map text (see {@link writeDeflatedOnce}). */
function deflatedOnce(chunk: Uint8Array | string): Buffer {
  if (typeof chunk !== 'string') {
    const known = deflatedFontFiles.get(chunk);
    if (known) return known;
    const deflated = deflateSync(chunk);
    deflatedFontFiles.set(chunk, deflated);
    return deflated;
  }
  const known = deflatedMaps.get(chunk);
  if (known) return known;
  const deflated = deflateSync(Buffer.from(`${chunk}\n`, 'latin1'));
  if (deflatedMaps.size >= SUBSETS_KEPT) deflatedMaps.delete(deflatedMaps.keys().next().value as string);
  deflatedMaps.set(chunk, deflated);
  return deflated;
}

/**
 * Runs `write`, whose first new object is a stream it ends with its bytes, with those bytes deflated
 * once for all documents: pdfkit deflated each document's font files and maps anew, a tenth of a
 * receipt's rendering, and most documents share them (see {@link SUBSET_SEED}). The stream says it is
 * deflated (`Filter`), so pdfkit writes the bytes as given.
 */
function writeDeflatedOnce<T>(document: PdfKitDocument, write: () => T): T {
  const ref = document.ref;
  document.ref = (data) => {
    document.ref = ref;
    const stream = ref.call(document, { ...data, Filter: 'FlateDecode' });
    const end = stream.end;
    stream.end = (chunk) => end.call(stream, deflatedOnce(chunk));
    return stream;
  };
  try {
    return write();
  } finally {
    document.ref = ref;
  }
}

/**
 * Starts the document's subset of `embedded` with {@link SUBSET_SEED}, writes it through the cache,
 * and deflates its font file and ToUnicode map once.
 */
function seedSubset(embedded: EmbeddedFont, fontKey: string) {
  embedded.encode(SUBSET_SEED);
  const { subset } = embedded;
  const write = subset.encode.bind(subset);
  subset.encode = () => subsetBytesOf(fontKey, subset, write);
  const { embed, toUnicodeCmap } = embedded;
  embedded.embed = () => writeDeflatedOnce(embedded.document, () => embed.call(embedded));
  embedded.toUnicodeCmap = () => writeDeflatedOnce(embedded.document, () => toUnicodeCmap.call(embedded));
}

/**
 * Makes every document reuse the fonts parsed by the first one, and the words already shaped in them.
 * pdfkit parses each TTF file anew for every document (fontkit), which was more than half of a
 * receipt's rendering time; the parsed font is read-only after parsing, and each document still gets
 * its own EmbeddedFont, so its own subset.
 */
function cacheParsedFonts() {
  const pdfDocumentClass = (
    require('pdfmake/js/PDFDocument') as { default: { prototype: { provideFont: ProvideFont } } }
  ).default;
  const provideFont = pdfDocumentClass.prototype.provideFont;
  const parsed = new Map<string, SharedFont>();
  pdfDocumentClass.prototype.provideFont = function (familyName, bold, italics) {
    const type = this.getFontType(bold, italics);
    const documentFonts = this.fontCache[familyName];
    const known = documentFonts?.[type];
    if (known) return known;
    const key = `${familyName}/${type}`;
    const cached = parsed.get(key);
    if (!cached) {
      const embedded = provideFont.call(this, familyName, bold, italics) as EmbeddedFont;
      const shared: SharedFont = {
        font: embedded.font,
        embeddedFontClass: embedded.constructor as EmbeddedFontClass,
        shapedWords: Object.create(null),
        documentsSinceSizeCheck: 0,
      };
      parsed.set(key, shared);
      embedded.layoutCache = shared.shapedWords;
      seedSubset(embedded, key);
      return embedded;
    }
    this._fontCount += 1;
    const embedded = new cached.embeddedFontClass(this, documentFont(cached.font), `F${this._fontCount}`);
    embedded.layoutCache = shapedWordsOf(cached);
    seedSubset(embedded, key);
    // pdfkit embeds (subsets and writes) the fonts listed here when the document ends.
    this._fontFamilies[embedded.id] = embedded;
    this.fontCache[familyName] = { ...documentFonts, [type]: embedded };
    return embedded;
  };
}

let configured: Pdfmake | undefined;

/**
 * Loads and sets pdfmake up once per process, at the first document (not at start-up: pdfmake, pdfkit
 * and fontkit are a large part of the server's module loading): Roboto read from disk into pdfmake's
 * in-memory file system, and access policies that refuse every URL and every local file, so nothing in
 * a document (a logo, a font name) can make the server fetch or read anything.
 */
function configure(): Pdfmake {
  if (configured) return configured;
  // pdfmake's server build exports one configured instance through `module.exports`, which an ESM
  // namespace import cannot see: load it with require.
  const pdfmake = require('pdfmake') as Pdfmake;
  const fontDir = path.join(path.dirname(require.resolve('pdfmake/package.json')), 'fonts', 'Roboto');
  for (const file of Object.values(ROBOTO_FILES)) {
    pdfmake.virtualfs.writeFileSync(file, readFileSync(path.join(fontDir, file)));
  }
  // Helvetica is one of PDF's standard 14 fonts (nothing embedded): the Swiss QR-bill's payment part
  // must be set in Helvetica, Arial, Frutiger or Liberation Sans (SIX QR-bill guidelines v2.3, 3.4).
  pdfmake.setFonts({
    Roboto: { ...ROBOTO_FILES },
    Helvetica: {
      normal: 'Helvetica',
      bold: 'Helvetica-Bold',
      italics: 'Helvetica-Oblique',
      bolditalics: 'Helvetica-BoldOblique',
    },
  });
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  cacheParsedFonts();
  speedUpStyleLookup();
  configured = pdfmake;
  return pdfmake;
}

/**
 * Renders a pdfmake document definition (Roboto is the default font; images must be data URLs) to the
 * bytes of a PDF. Used by the mandate letter, receipts and invoices. `drawOnLastPage`, when given,
 * draws with PDFKit on the last page of the laid-out document before it ends: what a library draws
 * on a PDFKit document itself (the Swiss QR-bill's payment part), which pdfmake's own nodes would
 * only reach through slower SVG.
 * @throws when the definition is invalid (e.g. an image that is not a PNG or JPEG).
 */
export async function renderPdf(
  document: TDocumentDefinitions,
  { drawOnLastPage }: { drawOnLastPage?: (page: PDFKit.PDFDocument) => void } = {},
): Promise<Buffer> {
  const pdf = configure().createPdf({
    ...document,
    content: printable(document.content) as TDocumentDefinitions['content'],
    defaultStyle: { font: 'Roboto', ...document.defaultStyle },
  });
  // pdfmake has laid out and drawn every page by now; getBuffer() ends this same document.
  if (drawOnLastPage) drawOnLastPage(await pdf.getStream());
  return pdf.getBuffer();
}

/**
 * The content with every narrow no-break space (U+202F, which `Intl.NumberFormat('fr-FR')` groups
 * thousands with: "1 234,50 €") made an ordinary no-break space: Roboto has no glyph for it, and pdfmake
 * would print a box. Images (data URLs) are left as they are.
 */
function printable(value: unknown): unknown {
  if (typeof value === 'string')
    return value.includes('\u202f') ? value.replaceAll('\u202f', '\u00a0') : value;
  if (Array.isArray(value)) return value.map(printable);
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype)
    return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === 'image' ? inner : printable(inner)]),
  );
}

let lastImageCheck: { src: string; usable: boolean } | undefined;

/**
 * True when pdfmake can draw `src` (a PNG or JPEG data URL): a file that only starts like a PNG is
 * refused. Documents call it before placing a logo, so a damaged logo leaves a blank where it would be
 * rather than failing the document. An image over the logo limits (1 MB, 2,000 × 2,000 pixels, read
 * from its header: a logo stored before those limits) is refused without being decoded. The last
 * answer is kept.
 */
export async function isUsableImage(src: string | null | undefined): Promise<boolean> {
  if (!src) return false;
  if (lastImageCheck?.src === src) return lastImageCheck.usable;
  let usable = drawableLogo(src) !== null;
  if (usable) {
    try {
      await renderPdf({ content: [{ image: src, width: 8 }] });
    } catch {
      usable = false;
    }
  }
  lastImageCheck = { src, usable };
  return usable;
}
