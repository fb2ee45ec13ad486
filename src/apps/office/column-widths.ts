import type { LaidCell } from './workbook-layout.js';

/** Widths never go past this many characters; the longest name or label (80) fits. */
const MAX_WIDTH = 90;

/**
 * Each column as wide as the longest text it shows (header, value, total label, a copied
 * name), so the office never clips a label at the next filled cell. Widths count characters
 * of the default font; bold text runs about a tenth wider, and two characters are margin.
 */
export function fittedWidths(cells: LaidCell[], columns: number, minimum: number): number[] {
  const widths = Array.from({ length: columns }, () => minimum);
  for (const cell of cells) {
    const text = cell.shows ?? (cell.value === undefined ? undefined : String(cell.value));
    if (text === undefined || cell.column >= columns) continue;
    const needed = Math.ceil(text.length * (cell.header ? 1.1 : 1)) + 2;
    widths[cell.column] = Math.min(MAX_WIDTH, Math.max(widths[cell.column] ?? minimum, needed));
  }
  return widths;
}

/** Whether nothing stands to the right of `cell` on its row (its text may run on into the empty cells). */
export function alone(cells: LaidCell[], cell: LaidCell): boolean {
  return !cells.some((other) => other.row === cell.row && other.column > cell.column);
}
