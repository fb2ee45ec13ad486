import {
  ACTIONABLE_ROLES,
  clip,
  containersWithin,
  type FrameScope,
  isHidden,
  quote,
  type RenderState,
} from './render-state.js';
import { renderTable } from './render-table.js';
import { type AriaNode, nodeText } from './snapshot.js';

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

type NodeRenderer = (state: RenderState, node: AriaNode, scope: FrameScope) => void;

/** Text children, except what only repeats a control's label or is punctuation between items. */
export function renderChildren(state: RenderState, node: AriaNode, scope: FrameScope): void {
  const labels = new Set(
    node.children.filter((child) => ACTIONABLE_ROLES.has(child.role)).map((child) => child.name.trim()),
  );
  for (const child of node.children) {
    if (child.role !== 'text') {
      renderNode(state, child, scope);
      continue;
    }
    const text = child.text.trim();
    if (text && !labels.has(text) && !/^[·•|,;:\-–—]+$/.test(text)) textLine(state, scope, text);
  }
}

/** A line of text; a field after it with no name of its own is found by it. */
function textLine(state: RenderState, scope: FrameScope, text: string): void {
  const shown = clip(state.redactor.text(text));
  if (!shown) return;
  state.line(scope, shown);
  state.lastText = clip(text);
}

/** Controls nested in a control or an alert: rare, but real. */
function renderNestedControls(state: RenderState, node: AriaNode, scope: FrameScope): void {
  for (const child of node.children) if (ACTIONABLE_ROLES.has(child.role)) renderNode(state, child, scope);
}

/** A frame: its title and path, then its content one level in, under its own password fields. */
const frame: NodeRenderer = (state, node, scope) => {
  state.richness.frames++;
  const facts = node.ref ? state.options.frames.get(node.ref) : undefined;
  const title = facts?.title ?? node.ref ?? 'frame';
  let path = '';
  try {
    const url = new URL(facts?.url ?? '');
    path = `${url.pathname}${url.search}`;
  } catch {
    path = facts?.url ?? '';
  }
  state.line(scope, `frame ${quote(title)} ${state.redactor.text(path)}:`);
  const inner: FrameScope = {
    path: [...scope.path, title],
    passwordNames: facts?.passwordNames ?? new Set(),
    containers: [],
    indent: `${scope.indent}  `,
  };
  if (node.ref && facts?.editor) {
    const { label, text } = facts.editor;
    const name = label ?? title;
    const record = state.registerFrameEditor(node.ref, name, label !== undefined, inner);
    const editor: AriaNode = {
      role: 'textbox',
      name,
      ref: node.ref,
      attrs: {},
      text,
      props: {},
      children: [],
    };
    state.line(inner, state.elementLine(editor, record));
  }
  renderChildren(state, node, inner);
};

/** Whether any node under this one is a control. */
function holdsControls(node: AriaNode): boolean {
  return node.children.some((child) => ACTIONABLE_ROLES.has(child.role) || holdsControls(child));
}

/**
 * An actionable element: its line, and a list box's options or the controls nested in it.
 * One nobody can act on (no ref: not shown, not reachable) is no line; an unnamed wrapper
 * around a control (a menu item holding its link) gives its place to what it holds.
 */
const actionable: NodeRenderer = (state, node, scope) => {
  const wrapper =
    !node.name.trim() && node.role !== 'combobox' && node.role !== 'listbox' && holdsControls(node);
  if (!node.ref || wrapper) {
    renderChildren(state, node, scope);
    return;
  }
  const record = state.register(node, scope);
  if (record) state.shown.push(record.ref);
  state.line(scope, state.elementLine(node, record));
  if (node.role !== 'combobox' && node.role !== 'listbox') {
    // Text inside a link or button is its name already.
    renderNestedControls(state, node, scope);
    return;
  }
  if (node.role === 'listbox') {
    // A list of suggestions (an autocomplete's popup) is chosen from by a click on an option:
    // each needs its ref. A select's options, inside its combobox, are chosen by name instead.
    renderNestedControls(state, node, { ...scope, indent: `${scope.indent}  ` });
    return;
  }
  const options = node.children.filter((child) => child.role === 'option').map((child) => child.name);
  if (options.length === 0) return;
  const listed = options
    .slice(0, 12)
    .map((option) => quote(clip(state.redactor.text(option), 40)))
    .join(', ');
  state.line(scope, `  options: ${listed}${options.length > 12 ? ` … ${options.length - 12} more` : ''}`);
};

const heading: NodeRenderer = (state, node, scope) => {
  const text = nodeText(node);
  state.lastHeading = text;
  state.line(
    scope,
    `${'#'.repeat(Number(node.attrs.level ?? 2))} ${clip(state.redactor.text(text))}`,
    'heading',
  );
};

/** An alert or status message; an empty live region (a status bar waiting for news) is no line. */
const alert: NodeRenderer = (state, node, scope) => {
  const text = clip(state.redactor.text(nodeText(node)));
  if (text) state.line(scope, `! ${node.role}: ${text}`);
  renderNestedControls(state, node, scope);
};

/** A dialog: its name as a section line, then everything in it (its buttons are what ends it). */
const dialog: NodeRenderer = (state, node, scope) => {
  state.line(
    scope,
    `— ${node.role}${node.name.trim() ? ` ${quote(clip(state.redactor.text(node.name), 80))}` : ''}:`,
  );
  passThrough(state, node, scope);
};

const listItem: NodeRenderer = (state, node, scope) => {
  if (!node.children.some((child) => child.role !== 'text')) {
    state.line(scope, `• ${clip(state.redactor.text(nodeText(node)))}`);
    return;
  }
  if (node.text) state.line(scope, `• ${clip(state.redactor.text(node.text))}`);
  renderChildren(state, node, scope);
};

const image: NodeRenderer = (state, node, scope) => {
  if (node.name.trim()) state.line(scope, `img ${quote(clip(state.redactor.text(node.name), 80))}`);
};

/** A named region: its name as a section line, unless its first heading says the same. */
const region: NodeRenderer = (state, node, scope) => {
  const firstHeading = node.children.find((child) => child.role === 'heading');
  if (node.name.trim() && (!firstHeading || nodeText(firstHeading) !== node.name)) {
    state.line(scope, `— ${clip(state.redactor.text(node.name), 80)}:`);
  }
  passThrough(state, node, scope);
};

/** A wrapper with no meaning of its own: its own text, then its children in its place. */
const passThrough: NodeRenderer = (state, node, scope) => {
  if (node.text) textLine(state, scope, node.text);
  renderChildren(state, node, scope);
};

/** Any other role with a name or text: shown with its role, then its children. */
const other: NodeRenderer = (state, node, scope) => {
  state.line(scope, `${node.role} ${quote(clip(state.redactor.text(node.name || node.text)))}`);
  renderChildren(state, node, scope);
};

/** The renderer of each role the model's view treats specially; the rest are actionable, transparent or other. */
const BY_ROLE: Readonly<Record<string, NodeRenderer>> = {
  iframe: frame,
  table: renderTable,
  grid: renderTable,
  treegrid: renderTable,
  heading,
  alert,
  status: alert,
  alertdialog: dialog,
  dialog,
  listitem: listItem,
  img: image,
  image,
  region,
};

function rendererOf(node: AriaNode): NodeRenderer {
  const special = BY_ROLE[node.role];
  if (special) return special;
  if (ACTIONABLE_ROLES.has(node.role)) return actionable;
  const meaningless = TRANSPARENT.has(node.role) || node.role === 'root' || !(node.name || node.text);
  return meaningless ? passThrough : other;
}

/**
 * Renders one node in its scope: nothing of what no person perceives (aria-hidden, a box of
 * no size, a box off the page's side), and a named container's name kept for its controls' targets.
 */
export function renderNode(state: RenderState, node: AriaNode, scope: FrameScope): void {
  if (isHidden(node) || state.offPage(node, scope)) return;
  const containers = containersWithin(node, scope.containers);
  rendererOf(node)(state, node, containers === scope.containers ? scope : { ...scope, containers });
}
