import { isIsoDate } from '@back-office/contract/common';
import {
  CURRENCY_CODE_PATTERN,
  EXCHANGE_RATE_DECIMALS,
  EXCHANGE_RATES_MAX_FILE_BYTES,
  MAX_EXCHANGE_RATE,
} from '@back-office/contract/exchange-rates';
import Papa from 'papaparse';
import { createBadRatesFileError } from './exchange-rates.errors.ts';
import type { NewExchangeRate } from './exchange-rates.repository.ts';

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const UTF8_BOM = [0xef, 0xbb, 0xbf];
const MEGABYTES = EXCHANGE_RATES_MAX_FILE_BYTES / (1024 * 1024);

/** A rate as the ECB writes it: digits, then a dot and decimals (`1.0842`, `155.52`, `7.4589`). */
const RATE_TEXT = /^\d+(?:\.(\d+))?$/;

/** Cells that hold no rate: the ECB writes `N/A` for a currency it did not publish that day. */
const isNoRate = (cell: string) => cell === '' || cell.toUpperCase() === 'N/A';

const startsWith = (bytes: Buffer, signature: number[]) =>
  signature.every((byte, index) => bytes[index] === byte);

/** `"value"` cut to 40 characters, to quote a cell in a message. */
const quoted = (value: string) => `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;

const ECB_FORMAT =
  'Upload the ECB file eurofxref-hist.csv: its first row is Date,USD,JPY,…, then one row per day (2025-01-31,1.0393,161.26,…).';

/**
 * Reads the ECB's history of the euro foreign exchange reference rates (`eurofxref-hist.csv`, or the
 * one-day `eurofxref.csv` in the same layout, whose day reads `31 January 2025`): a header row
 * `Date,USD,JPY,BGN,…` (often with a comma at its end, and so an empty last column), then one row per
 * business day, newest first, each rate in units of the currency for 1 euro, `N/A` where the ECB
 * published none. Answers every rate of the
 * file; cells `N/A` or empty hold none and are left out. Rows with nothing in them are ignored.
 * @throws 400 `exchange_rates.bad_file` naming the first problem: empty, over 10 MB, a ZIP archive, not
 *   a CSV text file, no `Date` column, a column that is not a currency code (or EUR, or twice), no day
 *   under the header, a day that is not `YYYY-MM-DD` (or twice), a rate that is not a positive number
 *   with at most 6 decimals.
 */
export function readEcbRatesFile(bytes: Buffer): NewExchangeRate[] {
  if (bytes.length === 0) throw createBadRatesFileError('The file is empty.');
  if (bytes.length > EXCHANGE_RATES_MAX_FILE_BYTES) {
    throw createBadRatesFileError(`The file is over ${MEGABYTES} MB.`);
  }
  if (startsWith(bytes, ZIP_SIGNATURE)) {
    throw createBadRatesFileError(
      'The file is a ZIP archive: open it and upload the eurofxref-hist.csv file it holds.',
    );
  }
  const rows = parseCsv(bytes);
  const headerIndex = rows.findIndex((row) => row.some((cell) => cell !== ''));
  const header = rows[headerIndex];
  if (!header) throw createBadRatesFileError('The file is empty.');
  const { dateColumn, currencies } = readHeader(header);

  const rates: NewExchangeRate[] = [];
  const lineOfDate = new Map<string, number>();
  for (let index = headerIndex + 1; index < rows.length; index += 1) {
    const row = rows[index] ?? [];
    if (row.every((cell) => cell === '')) continue;
    const line = index + 1;
    const cell = row[dateColumn] ?? '';
    const date = dayOf(cell);
    if (!date) {
      throw createBadRatesFileError(
        `Line ${line}: the date ${quoted(cell)} is not a day written YYYY-MM-DD (such as 2025-01-31).`,
      );
    }
    const earlier = lineOfDate.get(date);
    if (earlier !== undefined) {
      throw createBadRatesFileError(`Line ${line}: the day ${date} is already on line ${earlier}.`);
    }
    lineOfDate.set(date, line);
    for (const { column, currency } of currencies) {
      const rate = row[column] ?? '';
      if (isNoRate(rate)) continue;
      if (!isRate(rate)) {
        throw createBadRatesFileError(
          `Line ${line}, column ${currency}: ${quoted(rate)} is not a rate (a positive number with a dot and at most ${EXCHANGE_RATE_DECIMALS} decimals, such as 1.0842).`,
        );
      }
      rates.push({ date, currency, rate });
    }
  }
  if (lineOfDate.size === 0) throw createBadRatesFileError('The file has no days under its header row.');
  return rates;
}

/** The rows of the CSV text, every cell trimmed. */
function parseCsv(bytes: Buffer): string[][] {
  const body = startsWith(bytes, UTF8_BOM) ? bytes.subarray(UTF8_BOM.length) : bytes;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw createBadRatesFileError(`The file is not a CSV text file. ${ECB_FORMAT}`);
  }
  // A text file has no NUL character; a binary one (a PDF, a spreadsheet, an image) almost always does.
  if (text.includes('\u0000')) {
    throw createBadRatesFileError(`The file is not a CSV text file. ${ECB_FORMAT}`);
  }
  const parsed = Papa.parse<string[]>(text, { delimiter: ',' });
  const broken = parsed.errors.find((error) => error.type === 'Quotes');
  if (broken) {
    throw createBadRatesFileError(
      `The file is not a readable CSV file: line ${(broken.row ?? 0) + 1} has a quotation mark that is not closed.`,
    );
  }
  return parsed.data.map((row) => row.map((cell) => cell.trim()));
}

/**
 * The `Date` column and the currency columns of the header row; empty headers (the ECB's trailing
 * comma) are no column.
 */
function readHeader(header: string[]) {
  const dateColumn = header.findIndex((cell) => cell.toLowerCase() === 'date');
  if (dateColumn < 0) {
    throw createBadRatesFileError(`The file has no Date column. ${ECB_FORMAT}`);
  }
  const currencies: Array<{ column: number; currency: string }> = [];
  header.forEach((cell, column) => {
    if (column === dateColumn || cell === '') return;
    const currency = cell.toUpperCase();
    if (!CURRENCY_CODE_PATTERN.test(currency)) {
      throw createBadRatesFileError(
        `The column ${quoted(cell)} is not a currency code (3 letters, such as USD). ${ECB_FORMAT}`,
      );
    }
    if (currency === 'EUR') {
      throw createBadRatesFileError('The file has a EUR column: rates are for 1 euro, so a euro needs none.');
    }
    if (currencies.some((known) => known.currency === currency)) {
      throw createBadRatesFileError(`The file has two ${currency} columns.`);
    }
    currencies.push({ column, currency });
  });
  if (currencies.length === 0) {
    throw createBadRatesFileError(`The file has no currency columns beside its Date column. ${ECB_FORMAT}`);
  }
  return { dateColumn, currencies };
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/**
 * The day of a `Date` cell as `YYYY-MM-DD`, or null: `2025-01-31` as the history file writes it, or
 * `31 January 2025` as the ECB's one-day file `eurofxref.csv` does.
 */
function dayOf(cell: string): string | null {
  if (isIsoDate(cell)) return cell;
  const written = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(cell);
  const month = written ? MONTHS.indexOf(written[2]?.toLowerCase() ?? '') + 1 : 0;
  if (!written || month === 0) return null;
  const day = `${written[3]}-${String(month).padStart(2, '0')}-${written[1]?.padStart(2, '0')}`;
  return isIsoDate(day) ? day : null;
}

/** True for a positive rate the database can store: at most 6 decimals, at most {@link MAX_EXCHANGE_RATE}. */
function isRate(cell: string): boolean {
  const match = RATE_TEXT.exec(cell);
  if (!match) return false;
  const value = Number(cell);
  return value > 0 && value <= MAX_EXCHANGE_RATE && (match[1]?.length ?? 0) <= EXCHANGE_RATE_DECIMALS;
}
