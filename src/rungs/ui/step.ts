import type { Dialog, FileChooser, Page } from 'playwright-core';
import type { ErrorCode } from '../../contract/errors.js';
import type { UiAction, UiActionInput } from './actions.js';
import type { Target } from './locator.js';
import type { PageState } from './observe.js';
import type { UiPolicy } from './policy.js';
import type { Redactor } from './redact.js';
import type { ElementRecord } from './render.js';
import type { Risk } from './safety.js';
import type { Activity } from './settle.js';

export type StepStatus = 'executed' | 'rejected' | 'skipped';
/**
 * changed     the page (or the named state) changed and held still
 * no_change   nothing changed; `blockedBy` says what appears to block the action
 * unexpected  something changed, but not into the expected state (UNEXPECTED_STATE)
 * none        the action only reads (read, wait_for)
 */
export type Effect = 'changed' | 'no_change' | 'unexpected' | 'none';
export type BlockedBy =
  | 'disabled'
  | 'covered'
  | 'off_screen'
  | 'hidden'
  | 'dialog'
  | 'policy'
  | 'safety'
  | 'not_found'
  | 'ambiguous';

export interface StepResult {
  index: number;
  op: UiAction['op'];
  status: StepStatus;
  effect?: Effect;
  code?: ErrorCode;
  /** What happened, for the model (redacted). */
  message: string;
  hint?: string;
  /** A corrected call the model can copy. */
  example?: UiActionInput;
  risk?: Risk;
  blockedBy?: BlockedBy;
  /** The action was performed but its effect could not be confirmed; it is never repeated. */
  uncertain?: true;
  /** The element acted on, as the model may see it (redacted). */
  element?: { role: string; name: string; ref?: string };
  /**
   * For the caller's code (compiler, replay), never for a model: the semantic target the
   * action resolved to, with raw values, and the input a value came from.
   */
  resolved?: {
    target?: Target;
    input?: string;
    /** A template value as the capability stores it (`{{input.NAME}}` for each input). */
    template?: string;
    url?: string;
    /** No semantic target named the element alone: `target` matches others on the page too. */
    notUnique?: true;
  };
  durationMs: number;
}

/** What `act` needs from its session. */
export interface ActEnvironment {
  page: Page;
  policy: UiPolicy;
  redactor: Redactor;
  attended: boolean;
  /** Refs of the latest observation. */
  refs: Map<string, ElementRecord>;
  dialog(): Dialog | undefined;
  fileChooser(): FileChooser | undefined;
  clearBlocking(): void;
  activity: Activity;
  /** Requests the policy stopped since the given time. */
  blockedSince(time: number): Array<{ url: string; reason: string }>;
  /** The current page state, cheaply (dialog, sign-in form, 5xx). */
  state(): Promise<PageState>;
  /** HTTP status of a 5xx frame load since the given time, if any. */
  serverErrorSince(time: number): number | undefined;
  /** Absolute deadline of this action. */
  deadline: number;
  /** How long "nothing happened" must hold before it is concluded. */
  quietMs: number;
  /** Values the read actions produced, raw. */
  reads: Record<string, string>;
  /**
   * Every action must name its element by meaning, alone on the page (discovery: what it
   * does is compiled, and a target that names others too would replay on another element).
   */
  uniqueTargets?: boolean;
}
