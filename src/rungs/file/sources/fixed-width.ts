import { linesOf } from './lines.js';
import type { Scanner } from './scan.js';

export interface FixedWidthLayout {
  /** Characters per column, in the contract's column order. */
  widths: number[];
  /** Whether the first line holds the column names at the same positions. */
  headerLine: boolean;
}

/**
 * Fixed-width text: each column is cut at its position and trimmed. The header line, when
 * present, is cut the same way, so a renamed column or a moved boundary shows as a changed name.
 */
export function fixedWidthScanner(layout: FixedWidthLayout, names: readonly string[]): Scanner {
  const starts = layout.widths.map((_, index) =>
    layout.widths.slice(0, index).reduce((sum, width) => sum + width, 0),
  );
  const cut = (line: string) =>
    starts.map((start, index) => line.slice(start, start + (layout.widths[index] ?? 0)).trim());
  return async (path, handlers, signal) => {
    let row = 0;
    let headerSeen = !layout.headerLine;
    if (headerSeen) handlers.header([...names]);
    for await (const line of linesOf(path, signal)) {
      if (!headerSeen) {
        const width = layout.widths.reduce((sum, value) => sum + value, 0);
        const cells = cut(line);
        // Text past the last column is a column the layout does not know.
        const rest = line.slice(width).trim();
        handlers.header(rest === '' ? cells : [...cells, ...rest.split(/\s+/)]);
        headerSeen = true;
        continue;
      }
      row++;
      if (handlers.row(cut(line), row) === false) return;
    }
    if (!headerSeen) handlers.header([]);
  };
}
