import { IMPORT_MAX_ROWS, IMPORT_SAMPLE_COUNT } from '@back-office/contract/imports';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import { createBadImportFileError } from './imports.errors.ts';

/** A file read into its header row and its data rows, every cell a string (trimmed at the ends). */
export type ImportTable = { format: 'csv' | 'xlsx'; headers: string[]; rows: string[][] };

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const UTF8_BOM = [0xef, 0xbb, 0xbf];

const startsWith = (bytes: Buffer, signature: number[]) =>
  signature.every((byte, index) => bytes[index] === byte);

/**
 * Reads an uploaded file: XLSX (its first sheet) or CSV in UTF-8 (with or without BOM) or Windows-1252
 * (what Excel for Windows writes in France and Switzerland), separated by `,`, `;` or tabs (detected).
 * @throws 400 `imports.bad_file` naming what is wrong: neither CSV nor XLSX, empty, no row under the
 *   header, more than {@link IMPORT_MAX_ROWS} rows, or a first row that is data rather than headers.
 */
export async function readImportFile(bytes: Buffer): Promise<ImportTable> {
  if (bytes.length === 0) throw createBadImportFileError('The file is empty.');
  const table = startsWith(bytes, ZIP_SIGNATURE) ? await readXlsx(bytes) : readCsv(bytes);
  const [first, ...rows] = table.rows;
  if (!first || first.every((cell) => cell === '')) throw createBadImportFileError('The file is empty.');
  checkHeaderRow(first);
  if (rows.length === 0) throw createBadImportFileError('The file has no rows under its header row.');
  if (rows.length > IMPORT_MAX_ROWS) {
    throw createBadImportFileError(
      `The file has ${rows.length} rows; an import takes at most ${IMPORT_MAX_ROWS.toLocaleString('en')}.`,
    );
  }
  const width = Math.max(first.length, ...rows.slice(0, 1000).map((row) => row.length));
  const headers = Array.from({ length: width }, (_, index) => first[index] ?? '');
  return { format: table.format, headers, rows };
}

/** The first non-empty values of each column, for the mapping screen. */
export function columnSamples(table: ImportTable) {
  return table.headers.map((header, index) => {
    const samples: string[] = [];
    for (const row of table.rows) {
      const value = row[index] ?? '';
      if (value !== '' && !samples.includes(value)) samples.push(value.slice(0, 100));
      if (samples.length === IMPORT_SAMPLE_COUNT) break;
    }
    return { index, header, samples };
  });
}

function readCsv(bytes: Buffer): { format: 'csv'; rows: string[][] } {
  const text = decodeText(bytes);
  // A text file has no NUL character; a binary one (a PDF, an old .xls, an image) almost always does.
  if (text.includes('\u0000')) {
    throw createBadImportFileError('The file is neither CSV nor XLSX. Save it as CSV or XLSX and try again.');
  }
  const parsed = Papa.parse<string[]>(text, {
    delimitersToGuess: [';', ',', '\t'],
    skipEmptyLines: 'greedy',
  });
  return { format: 'csv', rows: parsed.data.map((row) => row.map((cell) => cell.trim())) };
}

/** UTF-8 when the bytes are valid UTF-8, else Windows-1252. A leading BOM is dropped. */
function decodeText(bytes: Buffer): string {
  const body = startsWith(bytes, UTF8_BOM) ? bytes.subarray(UTF8_BOM.length) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return iconv.decode(body, 'win1252');
  }
}

/**
 * The first sheet's rows. ExcelJS's whole-file reader, not its streaming one: the streaming reader cuts
 * characters of several bytes (é, ü) in two where its 16 KB pieces of XML meet, and writes "�" in their
 * place (a known fault of that reader); a round trip of 10,000 subscribers showed it. The whole file
 * is in memory while it is read: large registers are better brought as CSV.
 */
async function readXlsx(bytes: Buffer): Promise<{ format: 'xlsx'; rows: string[][] }> {
  const rows: string[][] = [];
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch {
    throw createBadImportFileError('The file is neither CSV nor XLSX. Save it as CSV or XLSX and try again.');
  }
  const sheet = workbook.worksheets[0];
  sheet?.eachRow({ includeEmpty: false }, (row) => {
    if (rows.length > IMPORT_MAX_ROWS + 1) return;
    const values = Array.from((row.values as ExcelJS.CellValue[]).slice(1), cellText);
    if (values.some((value) => value !== '')) rows.push(values);
  });
  return { format: 'xlsx', rows };
}

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * A spreadsheet cell as text: dates as `YYYY-MM-DD` (a date cell holds the day at midnight UTC),
 * numbers with `.` as decimal separator, booleans as `true`/`false`, formulas by their last result.
 */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    return `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return value.trim();
  if ('richText' in value)
    return value.richText
      .map((part) => part.text)
      .join('')
      .trim();
  if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
  if ('text' in value) return cellText(value.text as ExcelJS.CellValue);
  if ('error' in value) return '';
  return '';
}

const LOOKS_LIKE_DATA = [
  { pattern: /@/, what: 'an email address' },
  { pattern: /^\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}$/, what: 'a date' },
  { pattern: /^[+-]?\d[\d\s'.,]*$/, what: 'a number' },
];

/** The first row must name the columns: no header is a value, and no two headers are the same. */
function checkHeaderRow(first: string[]) {
  for (const cell of first) {
    const data = LOOKS_LIKE_DATA.find(({ pattern }) => pattern.test(cell));
    if (data) {
      throw createBadImportFileError(
        `The first row must name the columns (a header row), but it holds ${data.what}: "${cell.slice(0, 60)}".`,
      );
    }
  }
  const seen = new Set<string>();
  for (const cell of first) {
    const key = cell.toLowerCase();
    if (key !== '' && seen.has(key)) {
      throw createBadImportFileError(`The header row names the column "${cell.slice(0, 60)}" twice.`);
    }
    seen.add(key);
  }
}
