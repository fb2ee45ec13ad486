import type { SemanticLocator } from './locator.js';
import { ACTIONABLE_ROLES, clip, type FrameScope, quote, type RenderState } from './render-state.js';
import { type AriaNode, nodeText } from './snapshot.js';

const FIND_LIMIT = 20;
const KEY_HEADER = /\b(id|number|no|ref|reference|ticket|code|key)\b/i;

/**
 * A table as rows of cells: its header row as shown, the column each cell position falls
 * under (a header spanning three columns names all three), its data rows, and the raw text
 * of each cell.
 */
interface TableShape {
  headers: string[];
  columns: string[];
  rows: AriaNode[][];
  cells: string[][];
}

/** The header row laid over the columns by each header cell's colspan, when the page said them. */
function spread(headers: string[], spans: number[] | undefined): { headers: string[]; columns: string[] } {
  if (!spans || spans.length !== headers.length) return { headers, columns: headers };
  const over = (fill: (header: string, index: number) => string) =>
    headers.flatMap((header, index) =>
      Array.from({ length: Math.max(1, spans[index] ?? 1) }, (_, at) => fill(header, at)),
    );
  return { headers: over((header, at) => (at === 0 ? header : '')), columns: over((header) => header) };
}

function shapeOf(table: AriaNode, spans: number[] | undefined): TableShape {
  const rows: AriaNode[] = [];
  const collect = (node: AriaNode): void => {
    for (const child of node.children) {
      if (child.role === 'row') rows.push(child);
      else if (child.role !== 'table') collect(child);
    }
  };
  collect(table);
  const headerRow = rows.find((row) => row.children.some((cell) => cell.role === 'columnheader'));
  const { headers, columns } = spread(
    headerRow
      ? headerRow.children
          .filter((cell) => ['columnheader', 'cell', 'rowheader'].includes(cell.role))
          .map(nodeText)
      : [],
    spans,
  );
  const dataRows = rows
    .filter((row) => row !== headerRow)
    .map((row) => row.children.filter((cell) => ['cell', 'gridcell', 'rowheader'].includes(cell.role)));
  return {
    headers,
    columns,
    rows: dataRows,
    cells: dataRows.map((cells) => cells.map((cell) => cellReading(cell))),
  };
}

/** The row key: a column whose values are unique and shown, preferring identifier-like headers. */
function keyColumn(state: RenderState, shape: TableShape): number | undefined {
  const unique = shape.columns
    .map((header, index) => ({ header, index }))
    .filter(({ header, index }) => {
      if (state.redactor.isHiddenColumn(header)) return false;
      const values = shape.cells.map((cells) => cells[index] ?? '');
      return values.every((value) => value.trim()) && new Set(values).size === values.length;
    });
  return (unique.find(({ header }) => KEY_HEADER.test(header)) ?? unique[0])?.index;
}

/** Which rows are shown: those matching `find` (up to FIND_LIMIT), else the first rows of a long table. */
function selection(state: RenderState, shape: TableShape, displayName: string) {
  const { find, rowLimit } = state.options;
  const wanted = !find?.table || displayName.toLowerCase().includes(find.table.toLowerCase());
  const match = wanted ? find?.match.toLowerCase() : undefined;
  let selected = shape.rows.map((_, index) => index);
  if (match)
    selected = selected.filter((index) =>
      shape.cells[index]?.some((cell) => cell.toLowerCase().includes(match)),
    );
  const limit = match ? FIND_LIMIT : shape.rows.length > rowLimit + 3 ? rowLimit : shape.rows.length;
  return { match, selected, visible: new Set(selected.slice(0, limit)) };
}

/** Where a cell is: its row by the key column's value, its column, its table. */
interface CellPlace {
  header: string;
  rowKey: string;
  keyHeader: string | undefined;
  tableName: string;
}

/** The text a person reads in a cell: a select shows its chosen option, never the whole list. */
function cellReading(node: AriaNode): string {
  if (node.role === 'text') return node.text;
  if (node.role === 'combobox' || node.role === 'listbox') {
    const chosen = node.children.find((child) => child.role === 'option' && child.attrs.selected === 'true');
    return node.text || chosen?.name || '';
  }
  if (node.role === 'option') return '';
  const own = node.text || node.name;
  if (own) return own;
  return node.children
    .map(cellReading)
    .filter((text) => text.length > 0)
    .join(' ');
}

/**
 * The value a row is found by in its key cell: the record's own link when the cell holds one
 * ("jdoe" of "jdoe Edit | Delete", whose row actions are no part of the key), else its text.
 */
function keyOf(cell: AriaNode, reading: string): string {
  const link = firstLink(cell);
  return link && reading.startsWith(link) ? link : reading;
}

function firstLink(node: AriaNode): string | undefined {
  for (const child of node.children) {
    if (child.role === 'link' && child.name.trim()) return child.name.trim();
    const inner = firstLink(child);
    if (inner) return inner;
  }
  return undefined;
}

/** A control whose name is not the cell's text (a field, a box) is shown with its role and name. */
function controlLabel(state: RenderState, control: AriaNode, ref: string, text: string): string {
  const name = clip(state.redactor.text(control.name), 60);
  if (['link', 'button'].includes(control.role) && (!name || text.includes(name))) return `[${ref}]`;
  const checked = control.attrs.checked && control.attrs.checked !== 'false' ? ' [checked]' : '';
  return `[${ref}] ${control.role}${name ? ` ${quote(name)}` : ''}${checked}`;
}

/** One cell as shown: refs of the controls in it (registered with the cell as their fallback target), then its text. */
function cellText(
  state: RenderState,
  scope: FrameScope,
  cell: AriaNode,
  place: CellPlace,
  visible: boolean,
): string {
  const { header, rowKey, keyHeader, tableName } = place;
  const text = clip(state.redactor.cell(header, cellReading(cell)), 80);
  const refs: string[] = [];
  const walk = (node: AriaNode): void => {
    for (const child of node.children) {
      if (ACTIONABLE_ROLES.has(child.role) && child.ref) {
        const cellTarget: SemanticLocator | undefined =
          rowKey && header
            ? {
                by: 'cell',
                row: rowKey,
                column: header,
                ...(keyHeader ? { key: keyHeader } : {}),
                ...(tableName ? { table: tableName } : {}),
                element: { role: child.role, ...(child.name.trim() ? { name: child.name } : {}) },
              }
            : undefined;
        const record = state.register(child, scope, cellTarget);
        if (record && visible) {
          state.shown.push(record.ref);
          refs.push(controlLabel(state, child, record.ref, text));
        }
      }
      walk(child);
    }
  };
  walk(cell);
  return refs.length ? `${refs.join(' ')} ${text}`.trim() : text;
}

/**
 * A table summarised for the model: a title line (name, row count, headers), the rows
 * shown (first rows, or rows matching `find`), a line saying how to see the rest, and a
 * TableSummary. Hidden columns stay hidden; cells that hold controls name their refs.
 */
export function renderTable(state: RenderState, table: AriaNode, scope: FrameScope): void {
  state.richness.tables++;
  const shape = shapeOf(table, table.ref ? state.options.headerSpans?.get(table.ref) : undefined);
  const key = keyColumn(state, shape);
  const tableName = table.name || '';
  const displayName = clip(state.redactor.text(tableName || state.lastHeading), 80);
  const { match, selected, visible } = selection(state, shape, displayName);
  const shownRows: string[][] = [];
  shape.rows.forEach((cells, rowIndex) => {
    const keyCell = key === undefined ? undefined : cells[key];
    const rowKey = keyCell ? keyOf(keyCell, shape.cells[rowIndex]?.[key as number] ?? '') : '';
    const keyHeader = key === undefined ? undefined : shape.columns[key] || undefined;
    const display = cells.map((cell, column) =>
      cellText(
        state,
        scope,
        cell,
        { header: shape.columns[column] ?? '', rowKey, keyHeader, tableName: tableName || state.lastHeading },
        visible.has(rowIndex),
      ),
    );
    if (visible.has(rowIndex)) shownRows.push(display);
  });
  const count = shape.rows.length;
  const more = (match ? selected.length : count) - shownRows.length;
  state.omittedRows += count - shownRows.length;
  const findText = state.redactor.text(state.options.find?.match ?? '');
  const matching = match ? `; ${selected.length} matching ${quote(findText)}` : '';
  // A table `find` looked through without a match is no answer to it (observe.ts leaves it out).
  const kind = match && selected.length === 0 ? 'table-unmatched' : 'table';
  state.line(
    scope,
    `table${displayName ? ` ${quote(displayName)}` : ''} (${count} row${count === 1 ? '' : 's'}${matching}): ${shape.headers.map((header) => clip(header, 40)).join(' | ')}`,
    kind,
  );
  for (const row of shownRows) state.line(scope, `  | ${row.join(' | ')} |`, kind);
  if (more > 0) {
    state.line(
      scope,
      `  … ${more} more row${more === 1 ? '' : 's'}: observe with find {"match": "<value>"${displayName ? `, "table": ${quote(displayName)}` : ''}} to see rows containing a value`,
      kind,
    );
  }
  state.tables.push({
    frame: scope.path,
    name: displayName,
    headers: shape.headers,
    rowCount: count,
    rows: shownRows,
    ...(match ? { matching: findText } : {}),
  });
}
