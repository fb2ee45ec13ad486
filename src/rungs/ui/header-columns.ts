import type { Frame } from 'playwright-core';
import type { ColumnSpan } from './table-geometry.js';

/**
 * Where a column lies, read with one `frame.evaluate` over every table of the frame: each
 * table's header row (the first row with a `th`, else the first row, as `columnSpan` takes
 * it) and the place of each of its cells named `column` (by text, rendered text, aria-label,
 * or text with images' alt). The answer stands only when every such cell of every table
 * lies at the same place; anything else (none, or two places) is undefined and the caller
 * asks Playwright's own header match, which costs a new document 40–50 ms more (frame-at.ts).
 */
export async function columnSpanInFrame(frame: Frame, column: string): Promise<ColumnSpan | undefined> {
  const places = await frame.evaluate(HEADER_PLACES, column).catch(() => undefined);
  if (!places || new Set(places).size !== 1) return undefined;
  const [start, span] = places[0]!.split(':').map(Number) as [number, number];
  return { start, span };
}

// Source text, so no bundler wraps a helper of it in a __name the page lacks.
const HEADER_PLACES_SOURCE = `(column) => {
  const places = [];
  for (const table of Array.from(document.querySelectorAll('table'))) {
    const rows = Array.from(table.rows);
    const header = rows.find((row) => Array.from(row.cells).some((cell) => cell.tagName === 'TH')) || rows[0];
    if (!header) continue;
    let start = 0;
    for (const cell of Array.from(header.cells)) {
      let withAlts = '';
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.nodeType === Node.TEXT_NODE) withAlts += node.data;
        else if (node.tagName === 'IMG') withAlts += ' ' + (node.getAttribute('alt') || '') + ' ';
      }
      const names = [cell.textContent, cell.innerText, cell.getAttribute('aria-label'), withAlts];
      if (names.some((name) => (name || '').replace(/\\s+/g, ' ').trim() === column)) places.push(start + ':' + cell.colSpan);
      start += cell.colSpan;
    }
  }
  return places;
}`;

const HEADER_PLACES = new Function(`return ${HEADER_PLACES_SOURCE}`)() as (column: string) => string[];
