import { z } from 'zod';
import type { ToolEvent } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import type { BrowserPool } from './browser.js';
import type { PageState } from './observe.js';
import type { UiPolicy } from './policy.js';
import type { Redactor } from './redact.js';
import type { StepResult } from './step.js';

export interface SignInSpec {
  /** The user name typed into the sign-in form's user field. */
  user: string;
  /** The name of the secret holding the password (read through `secret`). */
  passwordSecret: string;
}

export interface UiSessionOptions {
  pool: BrowserPool;
  /** The browser profile (cookies, storage) this session signs in with and keeps. */
  profile?: string;
  policy: UiPolicy;
  /** Loaded (after the policy check) when the session opens. */
  startUrl?: string;
  /** Values bound from the task's inputs; shown as ⟦input:NAME⟧ and referred to as {"input": NAME}. */
  inputs?: Record<string, string>;
  /** Column headers never shown (⟦hidden:column⟧), e.g. ["Balance"]. */
  hiddenColumns?: string[];
  /** Further values never shown (tokens, canaries); every secret read is added too. */
  secrets?: string[];
  /** Whether a text holds any stored secret (ToolContext.holdsSecret fits): screenshots black it out. */
  isSecret?: (text: string) => boolean;
  /** Reads a named secret from the secret store (ToolContext.secret fits). */
  secret?: (name: string) => string;
  signIn?: SignInSpec;
  /** A person is watching: high-risk actions are allowed (still never blocked ones). */
  attended?: boolean;
  /** Folder for full snapshots and screenshots. */
  outputDir: string;
  /** Observation cap, in tokens counted as characters / 4 (default UI_DEFAULTS.maxTokens). */
  maxTokens?: number;
  /** Deadline of each action, verification included (default UI_DEFAULTS.actionTimeoutMs). */
  actionTimeoutMs?: number;
  /** How long "nothing happened" must hold before an action is judged no_change. */
  quietMs?: number;
  /** Receives the session's events (redacted); ToolContext.emit fits. */
  emit?: (event: ToolEvent) => void;
}

export interface ActResult {
  steps: StepResult[];
  /** The page state after the last step. */
  state: PageState;
  executed: number;
  rejected: number;
  /** Values read by `read` actions, raw: for the caller's code, never for a model. */
  reads: Record<string, string>;
}

export interface ObserveOptions {
  /** Show the rows of long tables that contain this value (optionally of one table). */
  find?: { match: string | { input: string }; table?: string };
  /** Which page of a long observation, 1 for the first. */
  page?: number;
}

const FindSchema = z.strictObject({
  match: z.union([z.string().min(1).max(200), z.strictObject({ input: z.string().min(1).max(64) })]),
  table: z.string().min(1).max(200).optional(),
});

/** A `find` checked, with a bound input's name replaced by its value (the page is searched with it). */
export function parseFind(find: unknown, redactor: Redactor): { match: string; table?: string } {
  const parsed = FindSchema.safeParse(find);
  if (!parsed.success)
    throw new LiftError('BAD_INPUT', `find is not valid:\n${z.prettifyError(parsed.error)}`);
  const { match, table } = parsed.data;
  const text = typeof match === 'string' ? match : redactor.inputValue(match.input);
  if (text === undefined) {
    const name = typeof match === 'string' ? match : match.input;
    throw new LiftError('BAD_INPUT', `No input named '${name}'.`);
  }
  return { match: text, ...(table ? { table } : {}) };
}
