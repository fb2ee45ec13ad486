import type { WorkbookLayout } from './workbook-layout.js';

/** HyperFormula is heavy: loaded when the first workbook is checked, not when Lift starts. */
type Engine = typeof import('hyperformula');

/** A computed value as either engine reports it. */
export type CellValue = { number: number } | { text: string } | { error: string } | { empty: true };

export interface ExpectedCell {
  sheet: string;
  row: number;
  column: number;
  label: string;
  value: CellValue;
}

function fromEngine(value: unknown, DetailedCellError: Engine['DetailedCellError']): CellValue {
  if (value instanceof DetailedCellError) return { error: value.value };
  if (typeof value === 'number') return { number: value };
  if (typeof value === 'boolean') return { number: value ? 1 : 0 };
  if (typeof value === 'string') return { text: value };
  return { empty: true };
}

/**
 * Computes every formula of the layout with HyperFormula, an engine independent of the
 * office suite: what LibreOffice computes must agree with this.
 */
export async function computeIndependently(layout: WorkbookLayout): Promise<ExpectedCell[]> {
  const { DetailedCellError, HyperFormula } = await import('hyperformula');
  const sheets: Record<string, Array<Array<string | number | boolean | null>>> = {};
  for (const laid of layout.sheets) {
    const grid: Array<Array<string | number | boolean | null>> = [];
    for (const cell of laid.cells) {
      const row = grid[cell.row] ?? [];
      grid[cell.row] = row;
      row[cell.column] = cell.formula === undefined ? (cell.value ?? null) : `=${cell.formula}`;
    }
    sheets[laid.name] = Array.from(grid, (row) => Array.from(row ?? [], (value) => value ?? null));
  }
  const engine = HyperFormula.buildFromSheets(sheets, { licenseKey: 'gpl-v3' });
  try {
    return layout.sheets.flatMap((laid) => {
      const sheet = engine.getSheetId(laid.name)!;
      return laid.cells
        .filter((cell) => cell.formula !== undefined)
        .map((cell) => ({
          sheet: laid.name,
          row: cell.row,
          column: cell.column,
          label: cell.label ?? '',
          value: fromEngine(
            engine.getCellValue({ sheet, row: cell.row, col: cell.column }),
            DetailedCellError,
          ),
        }));
    });
  } finally {
    engine.destroy();
  }
}
