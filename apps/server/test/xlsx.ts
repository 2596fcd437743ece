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
