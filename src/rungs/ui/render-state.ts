import type { FramePath, SemanticLocator, Target, Within } from './locator.js';
import type { Redactor } from './redact.js';
import type { ElementRecord, FrameFacts, Rendered, RenderOptions, TableSummary } from './render.js';
import type { AriaNode } from './snapshot.js';

/** A heading, a line of a table (title, rows, how to see more), a table no row of which `find` matched, anything else. */
export type LineKind = 'heading' | 'table' | 'table-unmatched' | 'text';

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
  // Icon-font glyphs (private use characters) are pictures, not text: " Compose" reads "Compose".
  const flat = text
    .replace(/[\uE000-\uF8FF]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function quote(text: string): string {
  return JSON.stringify(text);
}

/**
 * Where in the snapshot a node is rendered: its frame, that frame's password fields, the
 * named containers it sits in (outermost first), its indent.
 */
export interface FrameScope {
  path: FramePath;
  passwordNames: Set<string>;
  containers: Within[];
  indent: string;
}

/** Roles whose name names a part of the page a target can be looked for in. */
export const CONTAINER_ROLES = new Set([
  'region',
  'form',
  'group',
  'navigation',
  'complementary',
  'main',
  'banner',
  'contentinfo',
  'search',
  'dialog',
  'alertdialog',
  'tabpanel',
  'toolbar',
  'menu',
  'menubar',
  'tree',
  'list',
  'article',
]);

/** What no person perceives: a subtree marked aria-hidden (the page behind a modal dialog, icon glyphs). */
export function isHidden(node: AriaNode): boolean {
  return node.attrs['aria-hidden'] === 'true';
}

/** The containers a child of `node` sits in: the node's own, when it is a named container. */
export function containersWithin(node: AriaNode, containers: Within[]): Within[] {
  return CONTAINER_ROLES.has(node.role) && node.name.trim()
    ? [...containers, { role: node.role, name: node.name }]
    : containers;
}

/** A node's box from the snapshot's `[box=x,y,width,height]`, when boxes were asked for. */
function boxOf(node: AriaNode): { x: number; y: number; width: number; height: number } | undefined {
  const parts = node.attrs.box?.split(',').map(Number);
  if (parts?.length !== 4 || parts.some((part) => Number.isNaN(part))) return undefined;
  const [x = 0, y = 0, width = 0, height = 0] = parts;
  return { x, y, width, height };
}

const containerKey = (container: Within) => `${container.role}:${container.name}`;

/**
 * Counts role+name pairs per frame, and per named container they sit in, so that an
 * ambiguous name gets a locator that is unique; and counts the containers themselves.
 */
function countNames(
  node: AriaNode,
  frames: Map<string, FrameFacts>,
  path: string,
  containers: Within[],
  counts: Map<string, number>,
  skip?: (node: AriaNode, path: string) => boolean,
): void {
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const child of node.children) {
    if (isHidden(child) || (skip?.(child, path) ?? false)) continue;
    if (child.role === 'iframe') {
      const facts = child.ref ? frames.get(child.ref) : undefined;
      countNames(child, frames, `${path}/${facts?.title ?? child.ref}`, [], counts, skip);
      continue;
    }
    if (ACTIONABLE_ROLES.has(child.role) && child.ref) {
      add(`${path}|${child.role}|${child.name}`);
      for (const container of containers)
        add(`${path}|${containerKey(container)}|${child.role}|${child.name}`);
    }
    const inner = containersWithin(child, containers);
    if (inner !== containers) add(`${path}|#${containerKey(inner.at(-1)!)}`);
    countNames(child, frames, path, inner, counts, skip);
  }
}

const FLAGS = ['disabled', 'checked', 'expanded', 'selected', 'pressed'];
/** Roles a person types into or chooses in: found by the text before them when they have no name. */
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'listbox']);
const VALUE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

/**
 * What one rendering of a snapshot accumulates: the lines, every actionable element by
 * ref, the refs shown, the tables, the richness counts, and the heading last seen (a
 * table without a name is called after it). The renderers write here and nowhere else.
 */
export class RenderState {
  readonly options: RenderOptions;
  readonly lines: string[] = [];
  /** What each line is, for `find`: a heading gives its lines context, a table filtered its own rows. */
  readonly kinds: LineKind[] = [];
  readonly elements = new Map<string, ElementRecord>();
  readonly shown: string[] = [];
  readonly tables: TableSummary[] = [];
  readonly richness = { actionable: 0, named: 0, unnamed: 0, tables: 0, frames: 0 };
  omittedRows = 0;
  lastHeading = '';
  /** The text last shown before the next control: a field with no name is found by it. */
  lastText = '';
  readonly #counts = new Map<string, number>();

  constructor(root: AriaNode, options: RenderOptions) {
    this.options = options;
    const skip = (node: AriaNode, path: string) =>
      this.offPage(node, {
        path: path ? path.slice(1).split('/') : [],
        passwordNames: new Set(),
        containers: [],
        indent: '',
      });
    countNames(root, options.frames, '', [], this.#counts, skip);
  }

  get redactor(): RenderOptions['redactor'] {
    return this.options.redactor;
  }

  /**
   * Whether a node lies where nobody sees it: an actionable element with no size (a skip link
   * clipped to a pixel), or, in the top page, a box wholly beside the page (a collapsed console
   * parked right of the viewport). Boxes come with the snapshot (`[box=x,y,w,h]`).
   */
  offPage(node: AriaNode, scope: FrameScope): boolean {
    const box = boxOf(node);
    if (!box) return false;
    if (ACTIONABLE_ROLES.has(node.role) && box.width <= 1 && box.height <= 1) return true;
    const width = this.options.pageWidth;
    return scope.path.length === 0 && width !== undefined && (box.x >= width || box.x + box.width <= 0);
  }

  /** The ref as shown: the main frame's prefix left off (`f2e8` reads `e8`), an iframe's kept. */
  shownRef(ref: string): string {
    const prefix = this.options.mainRefPrefix;
    return prefix && ref.startsWith(prefix) && /^e\d+$/.test(ref.slice(prefix.length))
      ? ref.slice(prefix.length)
      : ref;
  }

  line(scope: FrameScope, text: string, kind: LineKind = 'text'): void {
    this.lines.push(`${scope.indent}${text}`);
    this.kinds.push(kind);
  }

  /**
   * An iframe whose document's body is the editor (TinyMCE): the snapshot has no node for a
   * body, so the editor is listed under the iframe's ref and found by its label in the frame.
   */
  registerFrameEditor(frameRef: string, name: string, labelled: boolean, scope: FrameScope): ElementRecord {
    this.richness.actionable++;
    this.richness.named++;
    const record: ElementRecord = {
      ref: this.shownRef(frameRef),
      ariaRef: `${frameRef}-body`,
      targetOnly: true,
      role: 'textbox',
      name,
      frame: scope.path,
      // A body with no label of its own is the frame's editor: the frame's title names it.
      target: { frame: scope.path, locator: labelled ? { by: 'label', label: name } : { by: 'editor' } },
      password: false,
      disabled: false,
      ambiguous: false,
    };
    this.elements.set(record.ref, record);
    this.shown.push(record.ref);
    return record;
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
    const label = this.lastText;
    this.lastText = '';
    const confirmed = this.options.confirmedTargets?.get(node.ref);
    const suggested = this.#uniqueTarget(node, scope, label, cellTarget);
    const target = confirmed === undefined ? suggested : (confirmed ?? undefined);
    const container = scope.containers.at(-1);
    const record: ElementRecord = {
      ref: this.shownRef(node.ref),
      ariaRef: node.ref,
      role: node.role,
      name: node.name,
      frame: scope.path,
      target: target ?? { frame: scope.path, locator: { by: 'role', role: node.role, name: node.name } },
      password: ['textbox', 'searchbox'].includes(node.role) && scope.passwordNames.has(node.name),
      disabled: node.attrs.disabled === 'true',
      ambiguous: target === undefined,
      ...(cellTarget ? { cell: cellTarget } : {}),
      ...(label && label.length <= 80 ? { before: label } : {}),
      ...(container ? { container } : {}),
      ...(node.nameFromContent ? { nameFromContent: true as const } : {}),
    };
    this.elements.set(record.ref, record);
    return record;
  }

  /**
   * A target that names this element alone, as far as the snapshot tells: role and name when
   * unique in its frame; else its table cell (by the row's key); else role and name inside the
   * nearest named container where they are unique; else, for a field with no name, the text
   * right before it. Undefined when none is: act finds which match it is on the live page.
   */
  #uniqueTarget(
    node: AriaNode,
    scope: FrameScope,
    label: string,
    cellTarget?: SemanticLocator,
  ): Target | undefined {
    const path = scope.path.length ? `/${scope.path.join('/')}` : '';
    const count = (key: string) => this.#counts.get(`${path}|${key}`) ?? 0;
    const named = node.name.trim() !== '';
    const role: SemanticLocator = { by: 'role', role: node.role, name: node.name };
    const unique = count(`${node.role}|${node.name}`) === 1;
    if (named && unique) return { frame: scope.path, locator: role };
    if (cellTarget) return { frame: scope.path, locator: cellTarget };
    if (!named && FIELD_ROLES.has(node.role) && label && label.length <= 80)
      return { frame: scope.path, locator: { by: 'field', label, role: node.role } };
    if (unique) return { frame: scope.path, locator: role };
    for (const container of [...scope.containers].reverse()) {
      const alone =
        count(`#${containerKey(container)}`) === 1 &&
        count(`${containerKey(container)}|${node.role}|${node.name}`) === 1;
      if (alone) return { frame: scope.path, within: container, locator: role };
    }
    return undefined;
  }

  /** `[ref] role "name" [flags] = value ⇒ locator (mark)`: one line per actionable element. */
  elementLine(node: AriaNode, record: ElementRecord | undefined): string {
    const { redactor } = this;
    const parts = [`[${node.ref ? this.shownRef(node.ref) : '?'}]`, node.role];
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
    const mark = record ? this.options.mark?.(record) : undefined;
    if (mark) parts.push(`(${mark})`);
    return parts.join(' ');
  }

  result(): Rendered {
    const { lines, kinds, elements, shown, tables, richness, omittedRows } = this;
    return { lines, kinds, elements, shown, tables, richness, omittedRows };
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
    case 'editor':
      return 'the editor of its frame';
  }
}
