import type { FramePath, SemanticLocator } from './locator.js';
import type { Redactor } from './redact.js';
import type { ElementRecord, FrameFacts, Rendered, RenderOptions, TableSummary } from './render.js';
import type { AriaNode } from './snapshot.js';

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

const MAX_TEXT = 240;

export function clip(text: string, max = MAX_TEXT): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function quote(text: string): string {
  return JSON.stringify(text);
}

/** Where in the snapshot a node is rendered: its frame, that frame's password fields, its indent. */
export interface FrameScope {
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

const FLAGS = ['disabled', 'checked', 'expanded', 'selected', 'pressed'];
const VALUE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

/**
 * What one rendering of a snapshot accumulates: the lines, every actionable element by
 * ref, the refs shown, the tables, the richness counts, and the heading last seen (a
 * table without a name is called after it). The renderers write here and nowhere else.
 */
export class RenderState {
  readonly options: RenderOptions;
  readonly lines: string[] = [];
  readonly elements = new Map<string, ElementRecord>();
  readonly shown: string[] = [];
  readonly tables: TableSummary[] = [];
  readonly richness = { actionable: 0, named: 0, unnamed: 0, tables: 0, frames: 0 };
  omittedRows = 0;
  lastHeading = '';
  readonly #counts = new Map<string, number>();

  constructor(root: AriaNode, options: RenderOptions) {
    this.options = options;
    countNames(root, options.frames, '', this.#counts);
  }

  get redactor(): RenderOptions['redactor'] {
    return this.options.redactor;
  }

  line(scope: FrameScope, text: string): void {
    this.lines.push(`${scope.indent}${text}`);
  }

  /**
   * Records an actionable element under its ref. Its target is role + name, or the table
   * cell it sits in when role + name is ambiguous or empty.
   */
  register(node: AriaNode, scope: FrameScope, cellTarget?: SemanticLocator): ElementRecord | undefined {
    if (!node.ref) return undefined;
    this.richness.actionable++;
    if (node.name.trim()) this.richness.named++;
    else this.richness.unnamed++;
    const key = `${scope.path.length ? `/${scope.path.join('/')}` : ''}|${node.role}|${node.name}`;
    const ambiguous = (this.#counts.get(key) ?? 0) > 1;
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
      ...(node.nameFromContent ? { nameFromContent: true as const } : {}),
    };
    this.elements.set(node.ref, record);
    return record;
  }

  /** `[ref] role "name" [flags] = value ⇒ locator (mark)`: one line per actionable element. */
  elementLine(node: AriaNode, record: ElementRecord | undefined): string {
    const { redactor } = this;
    const parts = [`[${node.ref ?? '?'}]`, node.role];
    if (node.name.trim()) parts.push(quote(clip(redactor.text(node.name), 120)));
    for (const flag of FLAGS) {
      const value = node.attrs[flag];
      if (value && value !== 'false') parts.push(value === 'true' ? `[${flag}]` : `[${flag}=${value}]`);
    }
    const value = node.text || '';
    if (record?.password) parts.push(value ? '= ⟦secret⟧' : '(password field)');
    else if (value && VALUE_ROLES.has(node.role)) parts.push(`= ${quote(clip(redactor.text(value), 120))}`);
    if (record && record.target.locator.by !== 'role')
      parts.push(`⇒ ${describeForModel(record.target.locator, redactor)}`);
    if (record?.ambiguous) parts.push('(name not unique: use the ref)');
    const mark = record ? this.options.mark?.(record) : undefined;
    if (mark) parts.push(`(${mark})`);
    return parts.join(' ');
  }

  result(): Rendered {
    const { lines, elements, shown, tables, richness, omittedRows } = this;
    return { lines, elements, shown, tables, richness, omittedRows };
  }
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
    case 'field':
      return `field ${quote(redactor.text(locator.label))}${locator.role ? ` ${locator.role}` : ''}`;
    case 'pair':
      return `pair ${quote(redactor.text(locator.label))}`;
  }
}
