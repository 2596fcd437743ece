import { PassThrough, type Readable } from 'node:stream';
import { ZipFile } from '../zip.ts';
import { neutraliseFormula } from './formula-safety.ts';

/** `Content-Type` of an `.xlsx` workbook. */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * How a column's values are written:
 * - `text` (default): a string cell in Text format (`@`), neutralised against formulas; null or ''
 *   leaves the cell empty;
 * - `code`: phone numbers, postcodes: a string cell in Text format, so that `01200` keeps its zero and
 *   `+41 22 …` shows no apostrophe (a phone-shaped value is never neutralised; anything else is, as `text`);
 * - `number`: a number shown with 2 decimals and thousands grouped (`#,##0.00`, money); `integer`: a
 *   whole number;
 * - `date`: a real Excel date shown `dd/mm/yyyy`, from a `YYYY-MM-DD` string or a Date (its UTC day);
 * - `datetime`: a real Excel date and time shown `dd/mm/yyyy hh:mm`, from a Date, in the writer's time zone;
 * - `boolean`: an Excel TRUE/FALSE.
 */
export type XlsxCellType = 'text' | 'code' | 'number' | 'integer' | 'date' | 'datetime' | 'boolean';

/** One column: its header, width in characters, type, and how to read its value from a row. */
export type XlsxColumn<Row> = {
  header: string;
  width?: number;
  type?: XlsxCellType;
  value: (row: Row) => unknown;
};

/** Excel number formats, as French staff read them (part 2 §7: the spreadsheets of the exports). */
const NUMBER_FORMATS: Record<XlsxCellType, string | undefined> = {
  text: '@',
  code: '@',
  number: '#,##0.00',
  integer: '0',
  date: 'dd/mm/yyyy',
  datetime: 'dd/mm/yyyy hh:mm',
  boolean: undefined,
};

/** Digits, spaces and `( ) . / -`, with an optional leading `+`: a phone number or a postcode, never a formula. */
const CODE_PATTERN = /^\+?[\d\s()./-]+$/;

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes to add to UTC to read the wall clock in `timeZone` at `instant` (Intl: exact but slow). */
function offsetMinutes(instant: number, timeZone: string): number {
  let format = wallClockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    wallClockFormats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(instant))) parts[part.type] = Number(part.value);
  const wall = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / 60_000);
}

const DAY_MS = 86_400_000;
/** Per time zone, UTC day -> the offset valid all that day, or null when it changes during the day. */
const dayOffsets = new Map<string, Map<number, number | null>>();

/**
 * The same instant as a Date whose UTC fields read the wall-clock time in `timeZone`: Excel dates have
 * no time zone, so 09:30 in Paris must be written as 09:30. Offsets are worked out once per day (a
 * day with a clock change is worked out per instant), so a large export does not call Intl per row.
 */
export function wallClockDate(date: Date, timeZone: string): Date {
  const instant = date.getTime();
  const day = Math.floor(instant / DAY_MS);
  let offsets = dayOffsets.get(timeZone);
  if (!offsets) {
    offsets = new Map();
    dayOffsets.set(timeZone, offsets);
  }
  let offset = offsets.get(day);
  if (offset === undefined) {
    const start = offsetMinutes(day * DAY_MS, timeZone);
    offset = start === offsetMinutes((day + 1) * DAY_MS - 1000, timeZone) ? start : null;
    if (offsets.size > 50_000) offsets.clear();
    offsets.set(day, offset);
  }
  return new Date(instant + (offset ?? offsetMinutes(instant, timeZone)) * 60_000);
}

const EXCEL_EPOCH_DAYS = 25_569; // 1970-01-01 as an Excel serial day (1900 date system)

/** A Date as an Excel serial day: days since 1899-12-30, the time of day as the fraction. */
function excelSerial(date: Date): number {
  return date.getTime() / DAY_MS + EXCEL_EPOCH_DAYS;
}

/** Longest text a cell holds in Excel (ECMA-376 gives no limit, Excel repairs the file beyond it). */
const MAX_CELL_TEXT = 32_767;
/** Characters XML 1.0 cannot carry (control characters but tab, LF, CR; U+FFFE, U+FFFF). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to remove.
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to remove.
const NEEDS_ESCAPE = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** `text` as XML character data: `& < >` escaped, characters XML cannot carry dropped. */
function xmlText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text
    .replace(INVALID_XML, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/**
 * Whether the character of code `code` may be white space (`\s`): every one is at most U+0020 or at
 * least U+00A0, so most letters are ruled out without a regular expression, which cost half a second
 * over a million rows.
 */
function mayBeSpace(code: number): boolean {
  return (code <= 0x20 || code >= 0xa0) && /\s/.test(String.fromCharCode(code));
}

/** An inline-string cell; the text is cut at Excel's limit, never inside a surrogate pair. */
function textCell(reference: string, style: number, value: string): string {
  let text = value;
  if (text.length > MAX_CELL_TEXT) {
    const end = /[\uD800-\uDBFF]/.test(text.charAt(MAX_CELL_TEXT - 1)) ? MAX_CELL_TEXT - 1 : MAX_CELL_TEXT;
    text = text.slice(0, end);
  }
  // Without xml:space="preserve" a reader may drop the spaces at either end.
  const space =
    mayBeSpace(text.charCodeAt(0)) || mayBeSpace(text.charCodeAt(text.length - 1))
      ? ' xml:space="preserve"'
      : '';
  return `<c r="${reference}" s="${style}" t="inlineStr"><is><t${space}>${xmlText(text)}</t></is></c>`;
}

/**
 * One cell's XML, or '' for an empty cell (left out: the references of the others keep their place).
 * `style` is the index of the column's format in the styles part.
 */
function cellXml(
  type: XlsxCellType,
  value: unknown,
  reference: string,
  style: number,
  timeZone: string,
): string {
  if (value === null || value === undefined || value === '') return '';
  switch (type) {
    case 'number':
    case 'integer': {
      const number = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(number) ? `<c r="${reference}" s="${style}"><v>${number}</v></c>` : '';
    }
    case 'date': {
      const date =
        value instanceof Date
          ? value
          : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
            ? new Date(`${value}T00:00:00Z`)
            : null;
      if (!date || Number.isNaN(date.getTime())) return '';
      return `<c r="${reference}" s="${style}"><v>${excelSerial(date)}</v></c>`;
    }
    case 'datetime':
      return value instanceof Date && !Number.isNaN(value.getTime())
        ? `<c r="${reference}" s="${style}"><v>${excelSerial(wallClockDate(value, timeZone))}</v></c>`
        : '';
    case 'boolean':
      return `<c r="${reference}" s="${style}" t="b"><v>${value ? 1 : 0}</v></c>`;
    case 'code': {
      const text = String(value);
      return textCell(reference, style, CODE_PATTERN.test(text) ? text : String(neutraliseFormula(text)));
    }
    default:
      return textCell(reference, style, String(neutraliseFormula(String(value))));
  }
}

/** Column letters of the 1-based column `index`: 1 → A, 27 → AA. */
function columnLetters(index: number): string {
  let letters = '';
  for (let rest = index; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

function xmlAttribute(text: string): string {
  return xmlText(text).replaceAll('"', '&quot;');
}

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIP_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELATIONSHIP_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Built-in number formats of SpreadsheetML (ECMA-376 Part 1, §18.8.30); others get ids from 164. */
const BUILT_IN_FORMATS: Record<string, number> = { '0': 1, '#,##0.00': 4, '@': 49 };

/**
 * The fixed parts of a one-sheet workbook (ECMA-376 Part 1, SpreadsheetML), and the style index of each
 * column: style 0 is the default, 1 the bold header, then one per number format used.
 */
function workbookParts(sheetName: string, columns: ReadonlyArray<{ type?: XlsxCellType }>) {
  const formats = [...new Set(columns.map((column) => NUMBER_FORMATS[column.type ?? 'text']))];
  const customFormats: string[] = [];
  const formatIds = formats.map((format) => {
    if (format === undefined) return 0;
    const builtIn = BUILT_IN_FORMATS[format];
    if (builtIn !== undefined) return builtIn;
    customFormats.push(format);
    return 163 + customFormats.length;
  });
  const styleOf = (type: XlsxCellType | undefined) => 2 + formats.indexOf(NUMBER_FORMATS[type ?? 'text']);
  const xf = (numFmtId: number, fontId: number) =>
    `<xf numFmtId="${numFmtId}" fontId="${fontId}" fillId="0" borderId="0" xfId="0"${numFmtId ? ' applyNumberFormat="1"' : ''}${fontId ? ' applyFont="1"' : ''}/>`;
  const font = (bold: boolean) =>
    `<font>${bold ? '<b/>' : ''}<sz val="11"/><name val="Calibri"/><family val="2"/></font>`;
  const styles = [
    XML_DECLARATION,
    `<styleSheet xmlns="${MAIN_NS}">`,
    customFormats.length
      ? `<numFmts count="${customFormats.length}">${customFormats
          .map((code, index) => `<numFmt numFmtId="${164 + index}" formatCode="${xmlAttribute(code)}"/>`)
          .join('')}</numFmts>`
      : '',
    `<fonts count="2">${font(false)}${font(true)}</fonts>`,
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>',
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>',
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>',
    `<cellXfs count="${2 + formatIds.length}">${xf(0, 0)}${xf(0, 1)}${formatIds.map((id) => xf(id, 0)).join('')}</cellXfs>`,
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>',
    '</styleSheet>',
  ].join('');
  return {
    styleOf,
    files: {
      '[Content_Types].xml': `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
      '_rels/.rels': `${XML_DECLARATION}<Relationships xmlns="${PACKAGE_RELATIONSHIP_NS}"><Relationship Id="rId1" Type="${RELATIONSHIP_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      'xl/workbook.xml': `${XML_DECLARATION}<workbook xmlns="${MAIN_NS}" xmlns:r="${RELATIONSHIP_NS}"><bookViews><workbookView/></bookViews><sheets><sheet name="${xmlAttribute(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      'xl/_rels/workbook.xml.rels': `${XML_DECLARATION}<Relationships xmlns="${PACKAGE_RELATIONSHIP_NS}"><Relationship Id="rId1" Type="${RELATIONSHIP_NS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${RELATIONSHIP_NS}/styles" Target="styles.xml"/></Relationships>`,
      'xl/styles.xml': styles,
    },
  };
}

/** Resolves when `stream` can take more, or has closed (the download was abandoned). */
function drained(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** Each row of `rows` as a batch of one. */
async function* oneByOne<Row>(rows: AsyncIterable<Row> | Iterable<Row>): AsyncGenerator<readonly Row[]> {
  for await (const row of rows) yield [row];
}

/** Sheet XML is handed on in pieces of about this many characters. */
const CHUNK_CHARS = 64 * 1024;
/**
 * zlib level of the sheet: 1 is about half the CPU of the default 6 for a file a third larger (the
 * sheet is plain, repetitive XML), for the export speed goal (bench/subscribers.bench.ts).
 */
const SHEET_COMPRESSION_LEVEL = 1;

/**
 * Streams an `.xlsx` workbook of one sheet (ECMA-376 Office Open XML SpreadsheetML, zipped with yazl,
 * ZIP64 when it grows past 4 GB): a bold, frozen header row, then one row per item of `rows`, each
 * column in its number format. The sheet's XML is written as the rows come, with inline strings, so
 * memory stays flat whatever the number of rows (docs/spec/design.md §Stack, "documents"); it is
 * written here rather than by a general spreadsheet library, which cost 3 µs a cell (a million
 * subscribers in two minutes, against a goal of 30 s: decision 017). Reading `rows` pauses while
 * the reader of the returned stream is behind, and stops when it goes away. A failure while reading
 * destroys the stream, which cuts the download short rather than sending a truncated file as if
 * complete. `timeZone` (default Europe/Paris) is where `datetime` values are read. The rows come one
 * by one (`rows`) or, for the large exports, in arrays (`batches`, from `keysetBatches`), which spares
 * an asynchronous step per row.
 */
export function xlsxStream<Row>({
  sheetName,
  columns,
  rows,
  batches,
  timeZone = 'Europe/Paris',
}: {
  sheetName: string;
  columns: ReadonlyArray<XlsxColumn<Row>>;
  timeZone?: string;
} & (
  | { rows: AsyncIterable<Row> | Iterable<Row>; batches?: never }
  | { batches: AsyncIterable<readonly Row[]>; rows?: never }
)): Readable {
  const { files, styleOf } = workbookParts(sheetName, columns);
  const zip = new ZipFile();
  const mtime = new Date();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name, { mtime });
  const sheet = new PassThrough();
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml', { mtime, compressionLevel: SHEET_COMPRESSION_LEVEL });
  zip.end();
  const output = zip.outputStream as PassThrough;
  // A download abandoned half way: stop writing the sheet, and let nothing wait for it to drain.
  output.on('close', () => sheet.destroy());

  const letters = columns.map((_, index) => columnLetters(index + 1));
  const styles = columns.map((column) => styleOf(column.type));
  const types = columns.map((column) => column.type ?? 'text');

  async function write() {
    const widths = columns
      .map(
        (column, index) =>
          `<col min="${index + 1}" max="${index + 1}" width="${column.width ?? 16}" customWidth="1"/>`,
      )
      .join('');
    let chunk = `${XML_DECLARATION}<worksheet xmlns="${MAIN_NS}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/><cols>${widths}</cols><sheetData><row r="1">${columns
      .map((column, index) => textCell(`${letters[index]}1`, 1, column.header))
      .join('')}</row>`;
    let rowNumber = 1;
    for await (const batch of batches ?? oneByOne(rows)) {
      for (const row of batch) {
        if (sheet.destroyed) return;
        rowNumber += 1;
        // Converted once per row, not once per cell.
        const rowText = String(rowNumber);
        chunk += `<row r="${rowText}">`;
        for (let index = 0; index < columns.length; index += 1) {
          const column = columns[index] as XlsxColumn<Row>;
          chunk += cellXml(
            types[index] as XlsxCellType,
            column.value(row),
            (letters[index] as string) + rowText,
            styles[index] as number,
            timeZone,
          );
        }
        chunk += '</row>';
        if (chunk.length >= CHUNK_CHARS) {
          const more = sheet.write(chunk);
          chunk = '';
          if (!more) await drained(sheet);
        }
      }
    }
    if (sheet.destroyed) return;
    sheet.end(`${chunk}</sheetData></worksheet>`);
  }

  write().catch((error: unknown) =>
    output.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return output;
}
