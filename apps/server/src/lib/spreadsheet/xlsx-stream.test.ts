import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readCells } from '../../../test/xlsx.ts';
import { type XlsxColumn, xlsxStream } from './xlsx-stream.ts';

type Row = { name: unknown; amount?: unknown; day?: unknown; at?: unknown; member?: unknown };

const COLUMNS: ReadonlyArray<XlsxColumn<Row>> = [
  { header: 'Name', width: 30, value: (row) => row.name },
  { header: 'Amount', type: 'number', width: 10, value: (row) => row.amount },
  { header: 'Day', type: 'date', value: (row) => row.day },
  { header: 'At', type: 'datetime', value: (row) => row.at },
  { header: 'Member', type: 'boolean', value: (row) => row.member },
];

async function workbookOf(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('no sheet');
  return sheet;
}

describe('xlsxStream', () => {
  it('writes a bold, frozen header, the column widths and each type in its format', async () => {
    const bytes = await buffer(
      xlsxStream({
        sheetName: 'Donors & friends',
        columns: COLUMNS,
        rows: [
          {
            name: 'Zoé <Müller> & Cie',
            amount: '1234.5',
            day: '2026-03-01',
            at: new Date('2026-07-01T07:30:00Z'),
            member: true,
          },
          { name: '=HYPERLINK("x")', amount: null, day: '', at: null, member: false },
        ],
      }),
    );
    const sheet = await workbookOf(bytes);
    expect(sheet.name).toBe('Donors & friends');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getColumn(1).width).toBe(30);
    expect(sheet.getColumn(3).width).toBe(16);

    const [first, second] = await readCells(bytes);
    expect(first?.Name).toEqual({ value: 'Zoé <Müller> & Cie', type: ExcelJS.ValueType.String, numFmt: '@' });
    expect(first?.Amount).toEqual({ value: 1234.5, type: ExcelJS.ValueType.Number, numFmt: '#,##0.00' });
    expect(first?.Day).toEqual({
      value: new Date('2026-03-01T00:00:00Z'),
      type: ExcelJS.ValueType.Date,
      numFmt: 'dd/mm/yyyy',
    });
    // 07:30 UTC is 09:30 in Paris in summer: Excel shows the wall clock.
    expect(first?.At).toEqual({
      value: new Date('2026-07-01T09:30:00Z'),
      type: ExcelJS.ValueType.Date,
      numFmt: 'dd/mm/yyyy hh:mm',
    });
    expect(first?.Member?.value).toBe(true);
    expect(second?.Name?.value).toBe('\'=HYPERLINK("x")');
    expect(second?.Amount?.value).toBeNull();
    expect(second?.Day?.value).toBeNull();
    expect(second?.Member?.value).toBe(false);
  });

  it('keeps edge spaces, drops characters XML cannot carry, cuts text at 32,767 and names columns past Z', async () => {
    const many = Array.from(
      { length: 28 },
      (_, index): XlsxColumn<Row> => ({
        header: `C${index + 1}`,
        value: (row) => (index === 27 ? 'last' : row.name),
      }),
    );
    const long = `${'a'.repeat(32_766)}😀tail`;
    const bytes = await buffer(
      xlsxStream({
        sheetName: 'S',
        columns: many,
        rows: [{ name: '  padded\u0001\u000B ' }, { name: long }],
      }),
    );
    const [padded, cut] = await readCells(bytes);
    expect(padded?.C1?.value).toBe('  padded ');
    expect(padded?.C28?.value).toBe('last');
    const sheet = await workbookOf(bytes);
    expect(sheet.getCell('AB2').value).toBe('last');
    // The emoji would straddle the limit: the cut falls before it, never inside it.
    expect(cut?.C1?.value).toBe('a'.repeat(32_766));
  });

  it('stops reading rows when the reader goes away, and fails the stream when the rows fail', async () => {
    let read = 0;
    async function* endless() {
      for (;;) {
        read += 1;
        yield { name: `row ${read} ${'x'.repeat(200)}` };
        await Promise.resolve();
      }
    }
    const abandoned = xlsxStream({ sheetName: 'S', columns: COLUMNS, rows: endless() });
    abandoned.resume();
    await new Promise((resolve) => setTimeout(resolve, 50));
    abandoned.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const readWhenDestroyed = read;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(read).toBe(readWhenDestroyed);

    async function* failing() {
      yield { name: 'one' };
      throw new Error('database gone');
    }
    await expect(buffer(xlsxStream({ sheetName: 'S', columns: COLUMNS, rows: failing() }))).rejects.toThrow(
      'database gone',
    );
  });
});
