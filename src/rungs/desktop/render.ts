import type { Shortcut } from './shortcuts.js';
import { type Control, isShown, type Richness, richnessLine } from './tree.js';

/** Roughly how many model tokens a text costs (four characters a token, as the shortlist counts). */
export function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}

const STATE_FLAGS = ['focused', 'checked', 'pressed', 'selected', 'expanded', 'editable', 'read-only'];

function quoted(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

/** One control as one line: ref, role, name, [id], {ops}, [states], = content, (description). */
export function controlLine(ref: string, control: Control): string {
  const parts = [ref, control.role, quoted(control.name)];
  if (control.id) parts.push(`[${control.id}]`);
  const ops = control.ops.filter((op) => op !== 'read' || !control.interactable);
  if (control.interactable && ops.length > 0) parts.push(`{${ops.join(', ')}}`);
  const flags = control.states.filter((state) => STATE_FLAGS.includes(state));
  if (!control.states.includes('sensitive') && !control.states.includes('enabled') && control.interactable) {
    flags.push('disabled');
  }
  if (control.role === 'password text') flags.push('password');
  if (flags.length > 0) parts.push(`[${flags.join(', ')}]`);
  if (control.role === 'password text') parts.push('= ⟦hidden⟧');
  else if (control.text !== undefined && control.text !== control.name && control.text.trim() !== '') {
    parts.push(`= ${quoted(control.text, 160)}`);
  } else if (control.value !== undefined) parts.push(`= ${control.value}`);
  if (control.description && control.description !== control.name) parts.push(`(${control.description})`);
  return parts.join(' ');
}

export interface RenderInput {
  program: string;
  pid: number;
  title: string;
  controls: readonly Control[];
  richness: Richness;
  shortcuts: readonly Shortcut[];
  maxTokens: number;
  /** Only controls whose role, name or id contains this text (case-insensitive). */
  filter?: string;
}

export interface Rendered {
  text: string;
  /** ref -> index into `controls`, for the lines shown. */
  refs: Map<string, number>;
  shown: number;
  omitted: number;
  truncated: boolean;
}

/**
 * The window as text for a model: a header with the richness line, one line per shown control
 * (interactable ones and texts with content), and the program's shortcuts. Stops at the token
 * cap and says how many lines it left out and how to narrow.
 */
export function renderWindow(input: RenderInput): Rendered {
  const header = `APP: ${input.program} (pid ${input.pid}) | window ${quoted(input.title)} | ${richnessLine(input.richness)}`;
  const lines = [header];
  if (!input.richness.rich) {
    lines.push(
      'NOTE: the tree is thin; prefer the program shortcuts or keys below, and say what you cannot reach.',
    );
  }
  const footer = input.shortcuts.length
    ? `SHORTCUTS (exact and instant: prefer them to clicking; act with {"op": "shortcut", "name": ...}): ${input.shortcuts.map((shortcut) => `${shortcut.name} = ${shortcut.keys.join('+')}`).join('; ')}`
    : '';
  const budget = input.maxTokens * 4 - header.length - footer.length - 80;
  const refs = new Map<string, number>();
  const needle = input.filter?.toLowerCase();
  let used = 0;
  let shown = 0;
  let omitted = 0;
  input.controls.forEach((control) => {
    if (!isShown(control)) return;
    const ref = `e${control.index}`;
    if (needle && !`${control.role} ${control.name} ${control.id ?? ''}`.toLowerCase().includes(needle))
      return;
    const line = controlLine(ref, control);
    if (used + line.length + 1 > budget) {
      omitted += 1;
      return;
    }
    used += line.length + 1;
    refs.set(ref, control.index);
    lines.push(line);
    shown += 1;
  });
  if (omitted > 0) lines.push(`... (${omitted} more; narrow with "filter" or raise "max_tokens")`);
  if (footer) lines.push(footer);
  return { text: lines.join('\n'), refs, shown, omitted, truncated: omitted > 0 };
}
