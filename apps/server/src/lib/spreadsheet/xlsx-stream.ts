import { PassThrough, type Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
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
/** `timeZone|UTC day` -> the offset valid all that day, or null when it changes during the day. */
const dayOffsets = new Map<string, number | null>();

/**
 * The same instant as a Date whose UTC fields read the wall-clock time in `timeZone`: Excel dates have
 * no time zone, so 09:30 in Paris must be written as 09:30. Offsets are worked out once per day (a
 * day with a clock change is worked out per instant), so a large export does not call Intl per row.
 */
export function wallClockDate(date: Date, timeZone: string): Date {
  const instant = date.getTime();
  const day = Math.floor(instant / DAY_MS);
  const key = `${timeZone}|${day}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    const start = offsetMinutes(day * DAY_MS, timeZone);
    offset = start === offsetMinutes((day + 1) * DAY_MS - 1000, timeZone) ? start : null;
    if (dayOffsets.size > 50_000) dayOffsets.clear();
    dayOffsets.set(key, offset);
  }
  return new Date(instant + (offset ?? offsetMinutes(instant, timeZone)) * 60_000);
}

function cellValue(type: XlsxCellType, value: unknown, timeZone: string): ExcelJS.CellValue {
  if (value === null || value === undefined || value === '') return null;
  switch (type) {
    case 'number':
    case 'integer': {
      const number = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(number) ? number : null;
    }
    case 'date':
      if (value instanceof Date) return value;
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
        ? new Date(`${value}T00:00:00Z`)
        : null;
    case 'datetime':
      return value instanceof Date ? wallClockDate(value, timeZone) : null;
    case 'boolean':
      return Boolean(value);
    case 'code': {
      const text = String(value);
      return CODE_PATTERN.test(text) ? text : neutraliseFormula(text);
    }
    default:
      return neutraliseFormula(String(value));
  }
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

/**
 * Streams an `.xlsx` workbook of one sheet: a bold, frozen header row, then one row per item of `rows`,
 * written with ExcelJS's streaming writer and committed one by one, so memory stays flat whatever the
 * number of rows (docs/spec/design.md §Stack, "documents"). Reading `rows` pauses while the reader of the
 * returned stream is behind, and stops when it goes away. A failure while reading destroys the stream,
 * which cuts the download short rather than sending a truncated file as if complete. `timeZone` (default
 * Europe/Paris) is where `datetime` values are read.
 */
export function xlsxStream<Row>({
  sheetName,
  columns,
  rows,
  timeZone = 'Europe/Paris',
}: {
  sheetName: string;
  columns: ReadonlyArray<XlsxColumn<Row>>;
  rows: AsyncIterable<Row> | Iterable<Row>;
  timeZone?: string;
}): Readable {
  const output = new PassThrough();

  // One style object per column, shared by all its cells: ExcelJS remembers the style id of an object
  // it has seen, while a fresh object per cell costs a full style lookup (most of the time of a big export).
  const styles: Array<Partial<ExcelJS.Style>> = columns.map((column) => {
    const numFmt = NUMBER_FORMATS[column.type ?? 'text'];
    return numFmt ? { numFmt } : {};
  });
  const rowStyle: Partial<ExcelJS.Style> = {};

  async function write() {
    // Loaded at the first export rather than at start-up (a large part of the server's module loading).
    const { default: excel } = await import('exceljs');
    const workbook = new excel.stream.xlsx.WorkbookWriter({
      stream: output,
      useStyles: true,
      // Shared strings would keep every distinct text in memory until the end.
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = columns.map((column) => ({ width: column.width ?? 16 }));
    const header = sheet.addRow(columns.map((column) => column.header));
    header.font = { bold: true };
    header.commit();
    for await (const row of rows) {
      if (output.destroyed) return;
      const line = sheet.addRow(
        columns.map((column) => cellValue(column.type ?? 'text', column.value(row), timeZone)),
      );
      // Row#style exists at run time but not in ExcelJS's types.
      (line as unknown as { style: Partial<ExcelJS.Style> }).style = rowStyle;
      line.eachCell({ includeEmpty: true }, (cell, columnNumber) => {
        cell.style = styles[columnNumber - 1] ?? rowStyle;
      });
      line.commit();
      if (output.writableNeedDrain) await drained(output);
    }
    sheet.commit();
    await workbook.commit();
  }

  write().catch((error: unknown) =>
    output.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return output;
}
