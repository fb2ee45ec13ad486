import type { DesktopOp } from './actions.js';
import type { Locator } from './locate.js';

/**
 * One action act_window performed, as the skill compiler needs it: the control by locator
 * (never by path), the raw text or keys, what was expected after it, and whether it held.
 */
export interface JournalEntry {
  /** Which act_window call the action belonged to (a count per session). */
  call: number;
  program: string;
  windowTitle: string;
  /** The window's structure fingerprint just before the action. */
  fingerprint: string;
  op: DesktopOp;
  locator?: Locator;
  text?: string;
  value?: string | number;
  checked?: boolean;
  keys?: string[];
  expect?: { locator?: Locator; textContains: string };
  /** The action ran and its check held (an action that changed nothing still counts). */
  ok: boolean;
  /** The window changed after it. */
  changed?: boolean;
  /** A control whose text the step's check read (the default final read of a skill). */
  readLocator?: Locator;
  at: number;
}
