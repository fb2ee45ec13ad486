import { writeFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { PRIVATE_FILE_MODE } from '../../contract/paths.js';
import type { WorkbookLayout } from './workbook-layout.js';
import type { ColumnType } from './workbook-plan.js';

const NUMBER_FORMATS: Record<ColumnType, string | undefined> = {
  text: '@',
  number: undefined,
  integer: '0',
  percent: '0.0%',
  currency: '#,##0.00',
};

/** Writes the laid-out workbook as .xlsx with live formulas; the office suite computes every value. */
export async function writeXlsx(layout: WorkbookLayout, title: string, path: string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  workbook.title = title;
  workbook.creator = 'Lift';
  workbook.calcProperties.fullCalcOnLoad = true;
  for (const laid of layout.sheets) {
    const sheet = workbook.addWorksheet(laid.name, {
      pageSetup: { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
    });
    laid.widths.forEach((width, index) => {
      sheet.getColumn(index + 1).width = width;
    });
    for (const cell of laid.cells) {
      const target = sheet.getCell(cell.row + 1, cell.column + 1);
      target.value = cell.formula === undefined ? (cell.value ?? null) : { formula: cell.formula };
      const format = cell.type ? NUMBER_FORMATS[cell.type] : undefined;
      if (format && cell.type !== 'text') target.numFmt = format;
      if (cell.header) target.font = { bold: true };
    }
  }
  await writeFile(path, Buffer.from(await workbook.xlsx.writeBuffer()), { mode: PRIVATE_FILE_MODE });
}
