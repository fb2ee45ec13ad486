import type { Check } from '../../contract/envelope.js';
import { cellAddress } from './formula.js';
import type { CellValue, ExpectedCell } from './formula-engine.js';
import type { WorkbookLayout } from './workbook-layout.js';

/** What the bridge's workbook job reports after LibreOffice recalculated the file. */
export interface OfficeWorkbook {
  sheets: Array<{ name: string; start: [number, number]; rows: Array<Array<string | number>> }>;
  errors: Array<{ sheet: string; cell: string; value: string }>;
  /** Charts found in the saved file (read from its zip directory, not reported by the office). */
  charts: number;
}

const SHOWN = 6;

function describe(value: CellValue): string {
  if ('number' in value) return String(Math.round(value.number * 1e9) / 1e9);
  if ('text' in value) return JSON.stringify(value.text);
  if ('error' in value) return value.error;
  return '(empty)';
}

function same(expected: CellValue, actual: CellValue): boolean {
  if ('error' in expected || 'error' in actual) return 'error' in expected && 'error' in actual;
  if ('number' in expected && 'number' in actual) {
    const scale = Math.max(1, Math.abs(expected.number), Math.abs(actual.number));
    return Math.abs(expected.number - actual.number) <= 1e-9 * scale;
  }
  if ('text' in expected && 'text' in actual) return expected.text === actual.text;
  const blank = (value: CellValue) =>
    'empty' in value || ('text' in value && value.text === '') || ('number' in value && value.number === 0);
  return blank(expected) && blank(actual);
}

function listed(items: string[]): string {
  const more = items.length > SHOWN ? `; and ${items.length - SHOWN} more` : '';
  return `${items.slice(0, SHOWN).join('; ')}${more}`;
}

/** Reads one cell from the office's read-back, error values included. */
export function officeValue(office: OfficeWorkbook, sheet: string, row: number, column: number): CellValue {
  const address = cellAddress(column, row);
  const error = office.errors.find((found) => found.sheet === sheet && found.cell === address);
  if (error) return { error: error.value };
  const read = office.sheets.find((candidate) => candidate.name === sheet);
  const value = read?.rows[row - read.start[1]]?.[column - read.start[0]];
  if (typeof value === 'number') return { number: value };
  if (typeof value === 'string') return value === '' ? { empty: true } : { text: value };
  return { empty: true };
}

/** The checks of a built workbook: error values, agreement with the independent engine, charts, formats. */
export function workbookChecks(
  layout: WorkbookLayout,
  expected: ExpectedCell[],
  office: OfficeWorkbook,
): Check[] {
  const labels = new Map(
    expected.map((cell) => [`${cell.sheet}!${cellAddress(cell.column, cell.row)}`, cell.label]),
  );
  const named = (sheet: string, cell: string) => {
    const label = labels.get(`${sheet}!${cell}`);
    return label ? `${sheet}!${cell} (${label})` : `${sheet}!${cell}`;
  };
  const usedCells = office.sheets.reduce(
    (sum, sheet) => sum + sheet.rows.reduce((count, row) => count + row.length, 0),
    0,
  );
  const checks: Check[] = [
    office.errors.length === 0
      ? {
          name: 'no_error_values',
          passed: true,
          detail: `LibreOffice recalculated ${office.sheets.length} sheet(s) and scanned ${usedCells} used cells: no error values.`,
        }
      : {
          name: 'no_error_values',
          passed: false,
          detail: `LibreOffice found ${office.errors.length} error value(s): ${listed(
            office.errors.map((error) => `${named(error.sheet, error.cell)} is ${error.value}`),
          )}.`,
        },
  ];

  const disagreements = expected.flatMap((cell) => {
    const actual = officeValue(office, cell.sheet, cell.row, cell.column);
    if (same(cell.value, actual)) return [];
    const address = cellAddress(cell.column, cell.row);
    return [
      `${named(cell.sheet, address)}: LibreOffice ${describe(actual)}, independent engine ${describe(cell.value)}`,
    ];
  });
  checks.push({
    name: 'values_agree',
    passed: disagreements.length === 0,
    detail:
      disagreements.length === 0
        ? `All ${expected.length} computed cells LibreOffice computed equal the values HyperFormula computed from the plan.`
        : `${disagreements.length} of ${expected.length} computed cells disagree: ${listed(disagreements)}.`,
  });

  checks.push({
    name: 'charts_present',
    passed: office.charts === layout.charts.length,
    detail: `The saved .xlsx holds ${office.charts} chart(s); the plan asked for ${layout.charts.length}.`,
  });

  const percentSlips = layout.sheets.flatMap((sheet) =>
    sheet.cells
      .filter((cell) => cell.type === 'percent' && !cell.header)
      .flatMap((cell) => {
        const value = officeValue(office, sheet.name, cell.row, cell.column);
        if (!('number' in value) || Math.abs(value.number) <= 1.5) return [];
        return [
          `${named(sheet.name, cellAddress(cell.column, cell.row))} holds ${value.number}, shown as ${(value.number * 100).toFixed(1)}%`,
        ];
      }),
  );
  if (layout.sheets.some((sheet) => sheet.cells.some((cell) => cell.type === 'percent'))) {
    checks.push({
      name: 'percent_formats',
      passed: percentSlips.length === 0,
      detail:
        percentSlips.length === 0
          ? 'Every percent-typed cell holds a fraction (0.86 shows as 86.0%).'
          : `Percent-typed cells hold whole numbers: ${listed(percentSlips)}. Type the column 'number', or divide by 100.`,
    });
  }
  return checks;
}
