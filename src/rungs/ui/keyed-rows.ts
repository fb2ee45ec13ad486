import type { Frame } from 'playwright-core';
import type { RowsLook } from './rows-look.js';
import type { ColumnSpan } from './table-geometry.js';

/**
 * One look, with `frame.evaluate`, at the rows whose cell under the key column holds `row`
 * (its whole text, or an element in it whose whole text it is), over every table of the frame:
 * how many, and for the one, the cells under the column and (when asked) its key cell. The
 * rows it counts are a superset of those `cellRows` names for a keyed cell (the same key cell
 * arithmetic, text compared with whitespace collapsed, in any table, hidden ones too), so
 * none means Playwright's locator finds none, and one means it finds that one or none.
 * Undefined when the frame has open shadow roots (Playwright's text match pierces them and
 * this does not) or the look fails: the caller looks through Playwright alone then.
 *
 * Why: Playwright's rows locator costs each evaluation about 10 ms on a real application's
 * page, and a read through it alone takes a count and four more evaluations; this takes one
 * evaluation here and one count there.
 */
export async function lookAtKeyedRows(
  frame: Frame,
  look: { row: string; key: ColumnSpan; column: ColumnSpan; readKey: boolean },
): Promise<RowsLook | undefined> {
  return frame.evaluate(KEYED_ROWS, look).catch(() => undefined);
}

// Source text, so no bundler wraps its helpers in a __name the page lacks.
const KEYED_ROWS_SOURCE = `({ row, key, column, readKey }) => {
  const normal = (text) => (text || '').replace(/\\s+/g, ' ').trim();
  const wanted = normal(row);
  const all = Array.from(document.querySelectorAll('*'));
  if (all.some((element) => element.shadowRoot)) return undefined;
  const skipped = new Set(['SCRIPT', 'NOSCRIPT', 'STYLE', 'TEMPLATE', 'HEAD']);
  const ownText = (element) => {
    if (element instanceof HTMLInputElement && ['submit', 'button', 'reset'].includes(element.type)) return element.value;
    let text = '';
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === Node.TEXT_NODE) text += child.nodeValue || '';
      else if (child.nodeType === Node.ELEMENT_NODE && !skipped.has(child.tagName)) text += ownText(child);
    }
    return text;
  };
  const holds = (element) => normal(ownText(element)) === wanted || normal(element.textContent) === wanted;
  // The place arithmetic of cellsUnder's XPath: every element before counts its colspan, or 1.
  const under = (tr, span) => {
    const cells = [];
    let at = 0;
    for (const child of Array.from(tr.children)) {
      const attribute = child.getAttribute('colspan');
      const width = attribute === null ? 1 : attribute.trim() === '' ? NaN : Number(attribute);
      if ((child.tagName === 'TD' || child.tagName === 'TH') && at < span.start + span.span && at + width > span.start)
        cells.push(child);
      at += width;
    }
    return cells;
  };
  const found = Array.from(document.querySelectorAll('tr, [role=row]')).filter((tr) =>
    under(tr, key).some((cell) => holds(cell) || Array.from(cell.querySelectorAll('*')).some(holds)),
  );
  if (found.length !== 1) return { rows: found.length, cells: 0 };
  const cells = under(found[0], column);
  const look = { rows: 1, cells: cells.length };
  if (cells.length === 1) look.text = cells[0].innerText;
  const keys = under(found[0], key);
  if (readKey && keys.length === 1) {
    const box = keys[0].getBoundingClientRect();
    const visible = box.width > 0 && box.height > 0 && getComputedStyle(keys[0]).visibility !== 'hidden';
    look.key = { text: keys[0].innerText, visible };
  }
  return look;
}`;

const KEYED_ROWS = new Function(`return ${KEYED_ROWS_SOURCE}`)() as (look: {
  row: string;
  key: ColumnSpan;
  column: ColumnSpan;
  readKey: boolean;
}) => RowsLook | undefined;
