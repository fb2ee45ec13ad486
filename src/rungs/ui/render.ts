import type { FramePath, SemanticLocator, Target, Within } from './locator.js';
import type { Redactor } from './redact.js';
import { renderNode } from './render-nodes.js';
import { type LineKind, RenderState } from './render-state.js';
import type { AriaNode } from './snapshot.js';

export { ACTIONABLE_ROLES, describeForModel } from './render-state.js';

/** Everything the renderer knows about an element it lists; `target` holds the raw values. */
export interface ElementRecord {
  /** The ref the observation shows: the page's own elements carry no frame prefix. */
  ref: string;
  /** Playwright's aria ref (with its frame prefix), what `aria-ref=` resolves. */
  ariaRef: string;
  role: string;
  name: string;
  frame: FramePath;
  target: Target;
  password: boolean;
  disabled: boolean;
  /** Whether role + name names more than one element in its frame. */
  ambiguous: boolean;
  /** The name was rebuilt from content (see AriaNode): the element's own name replaces it before use. */
  nameFromContent?: true;
  /** The table cell it sits in (by the row's key and the column), whatever target it got. */
  cell?: SemanticLocator;
  /** The text right before it ("From" before the sender's link). */
  before?: string;
  /** The innermost named container it sits in. */
  container?: Within;
  /** No aria ref names it (an iframe's editable body): only its target finds it. */
  targetOnly?: true;
}

export interface FrameFacts {
  title: string;
  url: string;
  /** Accessible names of the password inputs in the frame. */
  passwordNames: Set<string>;
  /**
   * The frame's document is a rich-text editor (its body editable): the body's label (none on
   * TinyMCE's, whose frame's title names it) and its text.
   */
  editor?: { label?: string; text: string };
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
  /** The top page's width in CSS pixels: a box wholly beside it is not shown. */
  pageWidth?: number;
  /** The main frame's ref prefix (`f2`), left off the refs shown: only an iframe's refs carry one. */
  mainRefPrefix?: string;
  /** Marks an element line (e.g. "blocked by policy"); undefined for none. */
  mark?: (element: ElementRecord) => string | undefined;
  /** Colspans of the header cells of tables whose header spans columns, by the table's ref (header-spans.ts). */
  headerSpans?: Map<string, number[]>;
  /**
   * Suggested targets checked on the live page, by aria ref: the target that names the element
   * there (its position among the matches added), or null where none does.
   */
  confirmedTargets?: Map<string, Target | null>;
}

export interface Rendered {
  lines: string[];
  /** What each line is (see LineKind). */
  kinds: LineKind[];
  /** Every actionable element in the snapshot, shown or not, by ref. */
  elements: Map<string, ElementRecord>;
  /** The refs whose lines were shown. */
  shown: string[];
  tables: TableSummary[];
  richness: { actionable: number; named: number; unnamed: number; tables: number; frames: number };
  omittedRows: number;
}

/**
 * Turns a parsed aria snapshot into the model's view: headings, text, one line per
 * actionable element with its ref and (when role + name is not enough) its semantic
 * locator, and tables summarised as header + rows. All text goes through the redactor.
 * Each role's renderer is an entry of render-nodes.ts; tables are render-table.ts; what a
 * rendering accumulates is a RenderState.
 */
export function renderSnapshot(root: AriaNode, options: RenderOptions): Rendered {
  const state = new RenderState(root, options);
  renderNode(state, root, { path: [], passwordNames: options.mainPasswordNames, containers: [], indent: '' });
  return state.result();
}
