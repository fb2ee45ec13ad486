import type { ColumnSpec } from '../columns.js';
import { delimitedScanner } from './delimited.js';
import { type FixedWidthLayout, fixedWidthScanner } from './fixed-width.js';
import { jsonLinesScanner } from './json-lines.js';
import type { Scanner } from './scan.js';
import { xlsxScanner } from './xlsx.js';

/** The export formats the file rung reads, each with a well-kept parser. */
export type ExportFormat =
  | { kind: 'csv' }
  | { kind: 'tsv' }
  | ({ kind: 'fixed' } & FixedWidthLayout)
  | { kind: 'jsonl' }
  /** sheetId: N of xl/worksheets/sheetN.xml (1 is the first sheet made). */
  | { kind: 'xlsx'; sheetId?: number };

export function scannerFor(format: ExportFormat, columns: readonly ColumnSpec[]): Scanner {
  switch (format.kind) {
    case 'csv':
      return delimitedScanner(',');
    case 'tsv':
      return delimitedScanner('\t');
    case 'fixed':
      return fixedWidthScanner(
        format,
        columns.map((column) => column.name),
      );
    case 'jsonl':
      return jsonLinesScanner;
    case 'xlsx':
      return xlsxScanner(format.sheetId);
  }
}

export type { ScanHandlers, Scanner } from './scan.js';
