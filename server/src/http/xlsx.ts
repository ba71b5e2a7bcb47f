import type { FastifyReply } from 'fastify';

export interface SheetColumn {
  header: string;
  width?: number;
}

// exceljs is loaded at the first export: ~8 MB of heap a server that never exports need not keep.
/** A workbook of one sheet: a bold header row, then the rows (every xlsx export of the API). */
export const sheetWorkbook = async (sheetName: string, columns: SheetColumn[], rows: Iterable<unknown[]>) => {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  // Sheet names are at most 31 characters and may not hold * ? : \ / [ ].
  const sheet = book.addWorksheet(sheetName.replace(/[*?:\\/[\]]/g, ' ').slice(0, 31) || '-');
  sheet.columns = columns.map((c) => ({ header: c.header, width: c.width ?? 14 }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
};

/** Sends a workbook as a download named `filename`. */
export const sendXlsx = (reply: FastifyReply, filename: string, buffer: Buffer) =>
  reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(buffer);
