import ExcelJS from 'exceljs';

/** The first sheet of an XLSX as rows of cell values (row 1 = headers), read back with ExcelJS. */
export async function readSheet(bytes: Buffer | Uint8Array) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('the workbook has no sheet');
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return { name: sheet.name, rows };
}

/** Rows as objects keyed by the header row. */
export function asRecords(rows: unknown[][]): Array<Record<string, unknown>> {
  const [headers = [], ...data] = rows;
  return data.map((row) => Object.fromEntries(headers.map((header, index) => [String(header), row[index]])));
}

/** A cell read back: its value, ExcelJS value type (`ExcelJS.ValueType`) and number format. */
export type ReadCell = { value: unknown; type: ExcelJS.ValueType; numFmt: string | undefined };

/** The first sheet's data rows as objects keyed by the header row, each cell with its type and format. */
export async function readCells(bytes: Buffer | Uint8Array): Promise<Array<Record<string, ReadCell>>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('the workbook has no sheet');
  const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const records: Array<Record<string, ReadCell>> = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1) return;
    records.push(
      Object.fromEntries(
        headers.map((header, index) => {
          const cell = row.getCell(index + 1);
          return [header, { value: cell.value, type: cell.type, numFmt: cell.numFmt }];
        }),
      ),
    );
  });
  return records;
}
