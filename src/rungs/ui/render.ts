import type { FramePath, SemanticLocator, Target } from './locator.js';
import type { Redactor } from './redact.js';
import { type AriaNode, nodeText } from './snapshot.js';

/** Roles a model can act on. */
export const ACTIONABLE_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'combobox',
  'checkbox',
  'radio',
  'switch',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'option',
  'slider',
  'spinbutton',
  'listbox',
  'treeitem',
]);

/** Wrappers that carry no meaning of their own: their children are rendered in their place. */
const TRANSPARENT = new Set([
  'generic',
  'paragraph',
  'main',
  'rowgroup',
  'group',
  'form',
  'none',
  'presentation',
  'article',
  'contentinfo',
  'complementary',
  'banner',
  'navigation',
  'list',
  'strong',
  'emphasis',
  'section',
  'LabelText',
  'document',
  'Section',
  'blockquote',
  'code',
  'superscript',
  'subscript',
  'time',
  'separator',
]);

/** Everything the renderer knows about an element it lists; `target` holds the raw values. */
export interface ElementRecord {
  ref: string;
  role: string;
  name: string;
  frame: FramePath;
  target: Target;
  password: boolean;
  disabled: boolean;
  /** Whether role + name names more than one element in its frame. */
  ambiguous: boolean;
}

export interface FrameFacts {
  title: string;
  url: string;
  /** Accessible names of the password inputs in the frame. */
  passwordNames: Set<string>;
}

export interface TableSummary {
  frame: FramePath;
  /** The table's caption or accessible name, else the heading above it. */
  name: string;
  headers: string[];
  rowCount: number;
  /** The rows shown (redacted), in page order. */
  rows: string[][];
  /** Set when `find` selected the rows shown. */
  matching?: string;
}

export interface RenderOptions {
  redactor: Redactor;
  frames: Map<string, FrameFacts>;
  mainPasswordNames: Set<string>;
  /** Tables with more rows than this show only `rowLimit` rows. */
  rowLimit: number;
  find?: { match: string; table?: string };
  /** Marks an element line (e.g. "blocked by policy"); undefined for none. */
  mark?: (element: ElementRecord) => string | undefined;
}

export interface Rendered {
  lines: string[];
  /** Every actionable element in the snapshot, shown or not, by ref. */
  elements: Map<string, ElementRecord>;
  /** The refs whose lines were shown. */
  shown: string[];
  tables: TableSummary[];
  richness: { actionable: number; named: number; unnamed: number; tables: number; frames: number };
  omittedRows: number;
}

const MAX_TEXT = 240;
const FIND_LIMIT = 20;
const KEY_HEADER = /\b(id|number|no|ref|reference|ticket|code|key)\b/i;

function clip(text: string, max = MAX_TEXT): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function quote(text: string): string {
  return JSON.stringify(text);
}

interface FrameScope {
  path: FramePath;
  passwordNames: Set<string>;
  indent: string;
}

/** Counts role+name pairs per frame so that ambiguous names get a better locator. */
function countNames(
  node: AriaNode,
  frames: Map<string, FrameFacts>,
  path: string,
  counts: Map<string, number>,
): void {
  for (const child of node.children) {
    if (child.role === 'iframe') {
      const facts = child.ref ? frames.get(child.ref) : undefined;
      countNames(child, frames, `${path}/${facts?.title ?? child.ref}`, counts);
      continue;
    }
    if (ACTIONABLE_ROLES.has(child.role)) {
      const key = `${path}|${child.role}|${child.name}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    countNames(child, frames, path, counts);
  }
}

/**
 * Turns a parsed aria snapshot into the model's view: headings, text, one line per
 * actionable element with its ref and (when role + name is not enough) its semantic
 * locator, and tables summarised as header + rows. All text goes through the redactor.
 */
export function renderSnapshot(root: AriaNode, options: RenderOptions): Rendered {
  const { redactor } = options;
  const lines: string[] = [];
  const elements = new Map<string, ElementRecord>();
  const shown: string[] = [];
  const tables: TableSummary[] = [];
  const counts = new Map<string, number>();
  countNames(root, options.frames, '', counts);
  const richness = { actionable: 0, named: 0, unnamed: 0, tables: 0, frames: 0 };
  let omittedRows = 0;
  let lastHeading = '';

  const register = (
    node: AriaNode,
    scope: FrameScope,
    cellTarget?: SemanticLocator,
  ): ElementRecord | undefined => {
    if (!node.ref) return undefined;
    richness.actionable++;
    if (node.name.trim()) richness.named++;
    else richness.unnamed++;
    const ambiguous =
      (counts.get(`${scope.path.length ? `/${scope.path.join('/')}` : ''}|${node.role}|${node.name}`) ?? 0) >
      1;
    let locator: SemanticLocator = { by: 'role', role: node.role, name: node.name };
    if (cellTarget && (ambiguous || !node.name.trim())) locator = cellTarget;
    const record: ElementRecord = {
      ref: node.ref,
      role: node.role,
      name: node.name,
      frame: scope.path,
      target: { frame: scope.path, locator },
      password: ['textbox', 'searchbox'].includes(node.role) && scope.passwordNames.has(node.name),
      disabled: node.attrs.disabled === 'true',
      ambiguous: ambiguous && locator.by === 'role',
    };
    elements.set(node.ref, record);
    return record;
  };

  const elementLine = (node: AriaNode, record: ElementRecord | undefined): string => {
    const parts = [`[${node.ref ?? '?'}]`, node.role];
    if (node.name.trim()) parts.push(quote(clip(redactor.text(node.name), 120)));
    for (const flag of ['disabled', 'checked', 'expanded', 'selected', 'pressed']) {
      if (node.attrs[flag] && node.attrs[flag] !== 'false') {
        parts.push(node.attrs[flag] === 'true' ? `[${flag}]` : `[${flag}=${node.attrs[flag]}]`);
      }
    }
    const value = node.text || '';
    if (record?.password) parts.push(value ? '= ⟦secret⟧' : '(password field)');
    else if (value && ['textbox', 'searchbox', 'combobox', 'spinbutton'].includes(node.role)) {
      parts.push(`= ${quote(clip(redactor.text(value), 120))}`);
    }
    if (record && record.target.locator.by !== 'role')
      parts.push(`⇒ ${describeForModel(record.target.locator, redactor)}`);
    if (record?.ambiguous) parts.push('(name not unique: use the ref)');
    const mark = record ? options.mark?.(record) : undefined;
    if (mark) parts.push(`(${mark})`);
    return parts.join(' ');
  };

  const renderTable = (table: AriaNode, scope: FrameScope): void => {
    richness.tables++;
    const rows: AriaNode[] = [];
    const collectRows = (node: AriaNode): void => {
      for (const child of node.children) {
        if (child.role === 'row') rows.push(child);
        else if (child.role !== 'table') collectRows(child);
      }
    };
    collectRows(table);
    const headerRow = rows.find((row) => row.children.some((cell) => cell.role === 'columnheader'));
    const headers = headerRow
      ? headerRow.children
          .filter((cell) => ['columnheader', 'cell', 'rowheader'].includes(cell.role))
          .map(nodeText)
      : [];
    const dataRows = rows
      .filter((row) => row !== headerRow)
      .map((row) => row.children.filter((cell) => ['cell', 'gridcell', 'rowheader'].includes(cell.role)));
    const rawCells = dataRows.map((cells) => cells.map((cell) => nodeText(cell)));
    // The row key: a column whose values are unique and shown, preferring identifier-like headers.
    const unique = headers
      .map((header, index) => ({ header, index }))
      .filter(({ header, index }) => {
        if (redactor.isHiddenColumn(header)) return false;
        const values = rawCells.map((cells) => cells[index] ?? '');
        return values.every((value) => value.trim()) && new Set(values).size === values.length;
      });
    const key = unique.find(({ header }) => KEY_HEADER.test(header)) ?? unique[0];
    const tableName = table.name || '';
    const displayName = clip(redactor.text(tableName || lastHeading), 80);
    const wantedTable =
      !options.find?.table || displayName.toLowerCase().includes(options.find.table.toLowerCase());
    const match = wantedTable ? options.find?.match.toLowerCase() : undefined;

    const rendered: string[][] = [];
    const renderedLines: string[] = [];
    let selected = dataRows.map((_, index) => index);
    if (match)
      selected = selected.filter((index) =>
        rawCells[index]?.some((cell) => cell.toLowerCase().includes(match)),
      );
    const limit = match
      ? FIND_LIMIT
      : dataRows.length > options.rowLimit + 3
        ? options.rowLimit
        : dataRows.length;
    dataRows.forEach((cells, rowIndex) => {
      const rowKey = key ? (rawCells[rowIndex]?.[key.index] ?? '') : '';
      const visible = selected.slice(0, limit).includes(rowIndex);
      const display = cells.map((cell, column) => {
        const header = headers[column] ?? '';
        const refs: string[] = [];
        const walk = (node: AriaNode): void => {
          for (const child of node.children) {
            if (ACTIONABLE_ROLES.has(child.role) && child.ref) {
              const cellTarget: SemanticLocator | undefined =
                rowKey && header
                  ? { by: 'cell', row: rowKey, column: header, ...(tableName ? { table: tableName } : {}) }
                  : undefined;
              const record = register(child, scope, cellTarget);
              if (record && visible) {
                shown.push(record.ref);
                refs.push(`[${child.ref}]`);
              }
            }
            walk(child);
          }
        };
        walk(cell);
        const text = clip(redactor.cell(header, nodeText(cell)), 80);
        return refs.length ? `${refs.join('')} ${text}` : text;
      });
      if (visible) {
        rendered.push(display);
        renderedLines.push(`${scope.indent}  | ${display.join(' | ')} |`);
      }
    });
    const shownCount = rendered.length;
    const more = (match ? selected.length : dataRows.length) - shownCount;
    omittedRows += dataRows.length - shownCount;
    const title = `${scope.indent}table${displayName ? ` ${quote(displayName)}` : ''} (${dataRows.length} row${dataRows.length === 1 ? '' : 's'}${match ? `; ${selected.length} matching ${quote(redactor.text(options.find?.match ?? ''))}` : ''}): ${headers.map((header) => clip(header, 40)).join(' | ')}`;
    lines.push(title, ...renderedLines);
    if (more > 0) {
      lines.push(
        `${scope.indent}  … ${more} more row${more === 1 ? '' : 's'}: observe with find {"match": "<value>"${displayName ? `, "table": ${quote(displayName)}` : ''}} to see rows containing a value`,
      );
    }
    tables.push({
      frame: scope.path,
      name: displayName,
      headers,
      rowCount: dataRows.length,
      rows: rendered,
      ...(match ? { matching: redactor.text(options.find?.match ?? '') } : {}),
    });
  };

  const renderChildren = (node: AriaNode, scope: FrameScope): void => {
    const labels = new Set(
      node.children.filter((child) => ACTIONABLE_ROLES.has(child.role)).map((child) => child.name.trim()),
    );
    for (const child of node.children) {
      if (child.role === 'text') {
        const text = child.text.trim();
        if (text && !labels.has(text) && !/^[·•|,;:\-–—]+$/.test(text)) {
          lines.push(`${scope.indent}${clip(redactor.text(text))}`);
        }
        continue;
      }
      renderNode(child, scope);
    }
  };

  const renderNode = (node: AriaNode, scope: FrameScope): void => {
    if (node.role === 'iframe') {
      richness.frames++;
      const facts = node.ref ? options.frames.get(node.ref) : undefined;
      const title = facts?.title ?? node.ref ?? 'frame';
      let path = '';
      try {
        const url = new URL(facts?.url ?? '');
        path = `${url.pathname}${url.search}`;
      } catch {
        path = facts?.url ?? '';
      }
      lines.push(`${scope.indent}frame ${quote(title)} ${redactor.text(path)}:`);
      renderChildren(node, {
        path: [...scope.path, title],
        passwordNames: facts?.passwordNames ?? new Set(),
        indent: `${scope.indent}  `,
      });
      return;
    }
    if (node.role === 'table' || node.role === 'grid' || node.role === 'treegrid') {
      renderTable(node, scope);
      return;
    }
    if (ACTIONABLE_ROLES.has(node.role)) {
      const record = register(node, scope);
      if (record) shown.push(record.ref);
      lines.push(`${scope.indent}${elementLine(node, record)}`);
      if (node.role === 'combobox' || node.role === 'listbox') {
        const options = node.children.filter((child) => child.role === 'option').map((child) => child.name);
        if (options.length) {
          lines.push(
            `${scope.indent}  options: ${options
              .slice(0, 12)
              .map((option) => quote(clip(redactor.text(option), 40)))
              .join(', ')}${options.length > 12 ? ` … ${options.length - 12} more` : ''}`,
          );
        }
        return;
      }
      // Text inside a link or button is its name already; nested controls are rare but real.
      for (const child of node.children) if (ACTIONABLE_ROLES.has(child.role)) renderNode(child, scope);
      return;
    }
    if (node.role === 'heading') {
      const text = nodeText(node);
      lastHeading = text;
      lines.push(`${scope.indent}${'#'.repeat(Number(node.attrs.level ?? 2))} ${clip(redactor.text(text))}`);
      return;
    }
    if (
      node.role === 'alert' ||
      node.role === 'status' ||
      node.role === 'alertdialog' ||
      node.role === 'dialog'
    ) {
      lines.push(`${scope.indent}! ${node.role}: ${clip(redactor.text(nodeText(node)))}`);
      for (const child of node.children) if (ACTIONABLE_ROLES.has(child.role)) renderNode(child, scope);
      return;
    }
    if (node.role === 'listitem') {
      const nested = node.children.some((child) => child.role !== 'text');
      if (!nested) {
        lines.push(`${scope.indent}• ${clip(redactor.text(nodeText(node)))}`);
        return;
      }
      if (node.text) lines.push(`${scope.indent}• ${clip(redactor.text(node.text))}`);
      renderChildren(node, scope);
      return;
    }
    if (node.role === 'img' || node.role === 'image') {
      if (node.name.trim()) lines.push(`${scope.indent}img ${quote(clip(redactor.text(node.name), 80))}`);
      return;
    }
    if (node.role === 'region') {
      const firstHeading = node.children.find((child) => child.role === 'heading');
      if (node.name.trim() && (!firstHeading || nodeText(firstHeading) !== node.name)) {
        lines.push(`${scope.indent}— ${clip(redactor.text(node.name), 80)}:`);
      }
    } else if (!TRANSPARENT.has(node.role) && node.role !== 'root' && (node.name || node.text)) {
      lines.push(`${scope.indent}${node.role} ${quote(clip(redactor.text(node.name || node.text)))}`);
      renderChildren(node, scope);
      return;
    }
    if (node.text) lines.push(`${scope.indent}${clip(redactor.text(node.text))}`);
    renderChildren(node, scope);
  };

  renderNode(root, { path: [], passwordNames: options.mainPasswordNames, indent: '' });
  return { lines, elements, shown, tables, richness, omittedRows };
}

/** A locator as the model sees it: bound values appear as placeholders. */
export function describeForModel(locator: SemanticLocator, redactor: Redactor): string {
  switch (locator.by) {
    case 'role':
      return `${locator.role} ${quote(redactor.text(locator.name))}`;
    case 'label':
      return `label ${quote(redactor.text(locator.label))}`;
    case 'text':
      return `text ${quote(redactor.text(locator.text))}`;
    case 'cell':
      return `cell row ${quote(redactor.text(locator.row))} column ${quote(locator.column)}`;
  }
}
