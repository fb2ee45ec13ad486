import type { Cell } from '../columns.js';
import type { Scanner } from './scan.js';

/** Formula results, rich text and hyperlinks reduced to the value a person sees. */
function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value;
  if (typeof value === 'object') {
    const object = value as { result?: unknown; text?: unknown; richText?: Array<{ text: string }> };
    if ('result' in object) return cellOf(object.result);
    if (object.richText) return object.richText.map((part) => part.text).join('');
    if ('text' in object) return cellOf(object.text);
  }
  return String(value);
}

/**
 * XLSX through exceljs's streaming reader (rows are parsed as the zip inflates; the sheet is
 * never held whole). The first row of the sheet is the header. The streaming reader knows a
 * sheet by its part number (xl/worksheets/sheetN.xml), not its tab name, so that is how a
 * contract names one; the default is the first sheet in the file.
 */
export function xlsxScanner(sheetId?: number): Scanner {
  return async (path, handlers, signal) => {
    // exceljs is heavy: loaded when an XLSX export is first read, not when Lift starts.
    const { default: ExcelJS } = await import('exceljs');
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'cache',
      worksheets: 'emit',
    });
    let headerSeen = false;
    for await (const worksheet of reader) {
      const id = (worksheet as unknown as { id?: number }).id;
      if (sheetId !== undefined && id !== sheetId) {
        for await (const _row of worksheet) {
          // Drain sheets that are not wanted; the zip is read in order.
        }
        continue;
      }
      let width = 0;
      let row = 0;
      for await (const sheetRow of worksheet) {
        if (signal?.aborted) throw signal.reason;
        const values = (sheetRow.values as unknown[]).slice(1);
        if (!headerSeen) {
          const names = values.map((value) => String(cellOf(value) ?? ''));
          width = names.length;
          handlers.header(names);
          headerSeen = true;
          continue;
        }
        row++;
        const cells: Cell[] = [];
        for (let index = 0; index < Math.max(width, values.length); index++)
          cells.push(cellOf(values[index]));
        if (handlers.row(cells, row) === false) return;
      }
      break;
    }
    if (!headerSeen) handlers.header([]);
  };
}
