import { sha256 } from '../../runtime/canonical.js';

/** One node of a window as the bridge reads it (AT-SPI role names, state nicks). */
export interface RawNode {
  path: string;
  /** Index of the parent in the same list; -1 for the window itself. */
  parent: number;
  role: string;
  name: string;
  states: string[];
  interfaces: string[];
  id?: string;
  description?: string;
  actions?: string[];
  text?: string;
  value?: { CurrentValue?: number; MinimumValue?: number; MaximumValue?: number };
}

/** What the model can do with a control. */
export type ControlOp = 'invoke' | 'toggle' | 'set_value' | 'type' | 'read';

/** A node as Lift shows and names it. */
export interface Control {
  /** Position in the window's node list (document order). */
  index: number;
  path: string;
  role: string;
  name: string;
  /** The toolkit's own id (AccessibleId), or GTK's widget class when the control has no name. */
  id?: string;
  /** The toolkit's description (a tooltip, often with the shortcut in brackets). */
  description?: string;
  ops: ControlOp[];
  states: string[];
  /** A text's or field's content: a value, never part of a locator or a fingerprint. */
  text?: string;
  value?: number;
  interactable: boolean;
}

const CLASS_NAME = /^(Gtk|Adw|Gdk)[A-Z][A-Za-z]*$/;
const TOGGLE_ROLES = new Set([
  'check box',
  'toggle button',
  'radio button',
  'check menu item',
  'radio menu item',
  'switch',
]);
/** Roles whose Value a person sets (a scroll bar's value is where the view is, not a setting). */
const VALUE_ROLES = new Set(['slider', 'spin button', 'dial']);
/** Actions every GTK 4 text and label offers; they say nothing about what the control is for. */
const NOISE_ACTION = /^(clipboard|selection|menu|link)\./;
/** Roles whose names are data (rows of a table, items of a list): left out of fingerprints. */
const DATA_ROLES = new Set([
  'table cell',
  'list item',
  'tree item',
  'table row',
  'row header',
  'column header',
]);

/** "4 4" (GTK 4 repeats a button's label) reads as "4"; "Undo [Ctrl+Z]" keeps its shortcut apart. */
function cleanName(raw: RawNode): { name: string; id?: string } {
  const id = raw.id && raw.id.length > 0 ? raw.id : undefined;
  let name = raw.name.trim();
  if (CLASS_NAME.test(name)) {
    const described = raw.description?.replace(/\s*\[[^\]]*\]\s*$/, '').trim();
    return { name: described ?? '', id: id ?? name };
  }
  const words = name.split(' ');
  if (words.length % 2 === 0 && words.length > 0) {
    const half = words.length / 2;
    if (words.slice(0, half).join(' ') === words.slice(half).join(' ')) name = words.slice(0, half).join(' ');
  }
  return id ? { name, id } : { name };
}

function opsOf(raw: RawNode): ControlOp[] {
  const ops: ControlOp[] = [];
  const actions = (raw.actions ?? []).filter((action) => !NOISE_ACTION.test(action));
  const editable = raw.states.includes('editable') && raw.interfaces.includes('EditableText');
  if (TOGGLE_ROLES.has(raw.role) || raw.states.includes('checkable')) ops.push('toggle');
  if (actions.length > 0 && !editable) ops.push('invoke');
  if (editable) ops.push('type', 'set_value');
  else if (raw.interfaces.includes('Value') && VALUE_ROLES.has(raw.role)) ops.push('set_value');
  if (raw.interfaces.includes('Text') || raw.role === 'label') ops.push('read');
  return ops;
}

/**
 * The name a person reads beside an unnamed field: the one label among its siblings
 * ("Search:" before a search entry), without its colon.
 */
function labelBeside(nodes: readonly RawNode[], raw: RawNode): string | undefined {
  const labels = nodes.filter(
    (node) => node.parent === raw.parent && node.role === 'label' && node.name.trim(),
  );
  return labels.length === 1 ? labels[0]!.name.trim().replace(/:$/, '') : undefined;
}

/** Turns the bridge's nodes into controls: cleaned names, the ops each allows, interactable or not. */
export function controlsOf(nodes: readonly RawNode[]): Control[] {
  return nodes.map((node, index) => {
    const raw =
      node.name.trim() === '' && node.parent >= 0 && (node.role === 'text' || node.role === 'entry')
        ? { ...node, name: labelBeside(nodes, node) ?? '' }
        : node;
    const ops = opsOf(raw);
    const interactable = ops.some((op) => op !== 'read') && !raw.states.includes('defunct');
    const value = raw.value?.CurrentValue;
    return {
      index,
      path: raw.path,
      role: raw.role,
      ...cleanName(raw),
      ...(raw.description ? { description: raw.description } : {}),
      ops,
      states: raw.states,
      ...(raw.text !== undefined ? { text: raw.text } : {}),
      ...(typeof value === 'number' ? { value } : {}),
      interactable,
    };
  });
}

/** True for a control a person would act on or read: interactable, or a named or filled text. */
export function isShown(control: Control): boolean {
  if (control.interactable) return true;
  if (TEXT_ROLES.has(control.role)) {
    return (control.text ?? control.name).trim().length > 0;
  }
  return false;
}

/** Roles that show text a person reads (a label, a display, a status bar). */
const TEXT_ROLES = new Set(['label', 'text', 'heading', 'status bar', 'static', 'caption', 'paragraph']);

export interface Richness {
  interactable: number;
  elements: number;
  rich: boolean;
}

/** Fewer than this many named, interactable controls means the tree is too thin to work from. */
export const RICH_AT_LEAST = 6;

export function richnessOf(controls: readonly Control[]): Richness {
  const interactable = controls.filter((control) => control.interactable).length;
  const named = controls.filter((control) => control.interactable && (control.name || control.id)).length;
  return { interactable, elements: controls.length, rich: named >= RICH_AT_LEAST };
}

export function richnessLine(richness: Richness): string {
  return richness.rich
    ? `rich: ${richness.interactable} interactable of ${richness.elements} elements`
    : `EMPTY: the tree is thin (${richness.interactable} interactable of ${richness.elements} elements)`;
}

/**
 * SHA-256 of the window's structure: the role, name and id of each interactable control in
 * order, never a text, a value or a state, and never the names of data rows (list items,
 * table cells), which change with the data and not with the program.
 */
export function fingerprintOf(controls: readonly Control[]): string {
  const skeleton = controls
    .filter((control) => control.interactable && !DATA_ROLES.has(control.role))
    .map((control) => `${control.role}|${control.name}|${control.id ?? ''}`);
  return sha256(skeleton.join('\n'));
}
