import type { z } from 'zod';
import type { ToolContext } from './context.js';
import { deadlineInRange, MAX_DEADLINE_MS } from './duration.js';
import { DEFAULT_GATE, type Effect, type EffectClass, type Gate, type Rung } from './effects.js';
import type { Check } from './envelope.js';
import type { ErrorCode, RetryAdvice } from './errors.js';
import type { PathScope, UrlScope } from './paths.js';

export interface ToolErrorSpec {
  retry?: RetryAdvice;
  /** What happened, what a correct call looks like, what to try next. */
  hint: string;
}

/** What an implementation returns on success. The invoker turns it into an envelope. */
export interface ToolResult<O> {
  fields: O;
  summary: string;
  effect?: Effect;
  verifiedBy?: string;
  files?: Record<string, string>;
  /** What the tool read back to confirm the result: the one way to check it; a failed check makes the envelope not ok. */
  checks?: Check[];
  asOf?: string;
  truncated?: boolean;
  narrow?: string;
}

/**
 * What a person approves when the preview is read from the system rather than the input (the
 * saved draft itself, the file as it is now). The digest is stored with the approval; the
 * approved call finds it in `ctx.approval.digest` and refuses to act when the system no
 * longer matches it (APPROVAL_STALE).
 */
export interface Preview {
  text: string;
  digest?: string;
}

export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** snake_case, task-shaped: verb_object (ticket_close_with_note). */
  name: string;
  title?: string;
  /** The one operation and its one effect, and what comes back. */
  description: string;
  /** Shortlist group (office, inventory, backoffice, ...). */
  group?: string;
  rung: Rung;
  ladder?: { ruledOut?: string[]; stepDown?: string; climb?: string };
  input: I;
  output: O;
  /** What the tool reads back to confirm its effect, and through which rung (for the contract card). */
  verifiedBy?: string;
  /** Maximum size of the envelope's fields as JSON characters (default 4,000), and how to narrow. */
  cap?: { chars?: number; rows?: number; narrow?: string };
  /** Error codes this tool can return beyond AUTH_REQUIRED, SURFACE_CHANGED, TIMEOUT, BAD_INPUT. */
  errors?: Partial<Record<ErrorCode, ToolErrorSpec>>;
  effect: {
    class: EffectClass;
    /** Defaults by class (read none, reversible log, visible review, irreversible signature). */
    gate?: Gate;
    /** What a second identical call does, and what makes it identical. */
    repeat?: string;
  };
  timeout: {
    deadlineMs: number;
    budget?: { steps?: number; attempts?: number };
    /** The read (another tool's name, with arguments in words) that settles an unknown outcome. */
    settle?: string;
  };
  session?: { secret: string; onExpiry: string };
  /**
   * The paths an input names, with the roots each must stay in. The runtime resolves them
   * (symlinks followed) right after validation, before the ledger and the gate: a path outside
   * its roots is BAD_INPUT, and nobody is asked to approve it. The implementation still takes
   * each through ctx.resolvePath and works on the real path that returns.
   */
  paths?: (input: z.infer<I>) => Array<{ path: string; scope: PathScope }>;
  /**
   * The URLs an input names, for a tool that fetches one (a picture from the web). Checked with
   * the paths: a URL whose origin the operator's policy does not allow for the family is
   * refused before the ledger and the gate. The implementation fetches each through
   * ctx.fetchUrl, which caps the body and follows no redirect to another origin. A tool that
   * declares none takes no URL: one given in a path field is refused.
   */
  urls?: (input: z.infer<I>) => Array<{ url: string; scope: UrlScope }>;
  /**
   * Exact description of what would be done, shown to the person who approves. The gate calls it
   * under the tool's deadline; a tool may read the system through `ctx` (a read only: nothing
   * may change before the yes), and an error it throws ends the call instead of holding it.
   */
  preview?: (input: z.infer<I>, ctx: ToolContext) => string | Preview | Promise<string | Preview>;
  /** Known confirmations the tool answers only after its gate approved the call. */
  confirmations?: string[];
  run: (input: z.infer<I>, ctx: ToolContext) => Promise<ToolResult<z.infer<O>>>;
  /**
   * The settle read as code: reads from the system whether this call's write has landed.
   * Returns the landed result, or undefined when nothing landed. Lift runs it before it
   * runs again a call whose earlier run has an unknown outcome (an approved call whose
   * approver died): the landed result is reported with effect `existing`, else the call
   * runs, so it lands exactly once. Without it such a call answers OUTCOME_UNKNOWN.
   */
  settleRead?: (input: z.infer<I>, ctx: ToolContext) => Promise<ToolResult<z.infer<O>> | undefined>;
  /** An example of a correct call, shown in BAD_INPUT hints and the contract card. */
  example?: z.input<I>;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every input and output type
export type AnyTool = ToolDefinition<any, any>;

const TOOL_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/;

/**
 * Declares a tool: the whole wrapper contract in one object. Everything else (JSON
 * Schema, MCP annotations, the contract card, exports, lint findings) is derived from it.
 */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(
  definition: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  if (!TOOL_NAME.test(definition.name)) {
    throw new Error(
      `Tool name '${definition.name}' must be snake_case with at least two words (verb_object).`,
    );
  }
  if (!deadlineInRange(definition.timeout.deadlineMs)) {
    throw new Error(
      `Tool '${definition.name}' needs a deadline from 1 to ${MAX_DEADLINE_MS} ms (a day), not ${definition.timeout.deadlineMs}.`,
    );
  }
  return Object.freeze(definition);
}

export function gateOf(tool: AnyTool): Gate {
  return tool.effect.gate ?? DEFAULT_GATE[tool.effect.class];
}
