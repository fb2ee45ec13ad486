import { z } from 'zod';
import type { Capability, CapabilityOutcome, InputSpec, OutputSpec } from '../capability/capability.js';
import { parseTypedValue } from '../capability/typed.js';
import type { ToolEvent } from '../contract/context.js';
import { LiftError } from '../contract/errors.js';
import type { StepResult } from '../rungs/ui/act.js';
import type { UiActionInput } from '../rungs/ui/actions.js';
import type { Target } from '../rungs/ui/locator.js';
import type { Observation } from '../rungs/ui/observe.js';
import type { ElementRecord } from '../rungs/ui/render.js';
import { compileCapability, type ExecutedAction } from './compile.js';
import {
  type ActArgs,
  type CompleteArgs,
  EXPLORER_TOOL_NAMES,
  EXPLORER_TOOLS,
  type ExplorerToolName,
  type HandoffArgs,
  isExplorerTool,
  type ObserveArgs,
} from './tools.js';

/** What discovery needs of a live UI session (the structured-UI rung provides it). */
export interface UiDriver {
  /** Navigates to the start page, signing the session in when it has a credential. */
  open(url: string): Promise<void>;
  observe(options: { screenshot?: boolean; find?: { match: string; table?: string | undefined } }): Promise<{
    observation: Observation;
    screenshotPath?: string;
  }>;
  act(actions: UiActionInput[]): Promise<StepResult[]>;
  /** Raw values of the reads, by output name; never shown to an explorer. */
  reads(): Record<string, string>;
  /** Refs of the latest observation, for the checkpoint. */
  refs(): Map<string, ElementRecord>;
  /** Dialog messages accepted by `dialog` actions, in order. */
  acceptedDialogs(): string[];
  /** Fingerprint (SHA-256 of the accessibility skeleton) and URL of the current page. */
  fingerprint(): Promise<{ fingerprint: string; url: string }>;
}

export interface Budgets {
  steps: number;
  seconds: number;
  rejected: number;
}

export type SessionOutcome = 'running' | 'completed' | 'budget_exhausted' | 'failed' | 'abandoned';

export interface DiscoveryTask {
  name: string;
  intent: string;
  inputs: InputSpec[];
  outputs: OutputSpec[];
  /** Values bound to the inputs for this session; the explorer never sees them. */
  bound: Record<string, string>;
  startUrl: string;
  outcomes?: CapabilityOutcome[];
}

export interface SessionOptions {
  task: DiscoveryTask;
  ui: UiDriver;
  budgets: Budgets;
  explorer: Capability['provenance']['explorer'];
  model?: string;
  runId: string;
  liftVersion: string;
  emit: (event: ToolEvent) => void;
  /** Saves the compiled capability; returns its revision. */
  save: (capability: Capability) => { revision: string; file: string };
  /** A person takes over; resolves when they say done. Absent in unattended runs. */
  handoff?: (reason: string, deadlineMs: number) => Promise<void>;
  handoffDeadlineMs?: number;
  now?: () => number;
}

/** What an explorer gets back from a tool: JSON, redacted, never a bound or read value. */
export type ToolReply =
  | { ok: true; [key: string]: unknown }
  | { ok: false; error: string; message: string; hint?: string; example?: unknown };

export interface SessionStatus {
  outcome: SessionOutcome;
  steps: number;
  rejected: number;
  elapsedMs: number;
  observations: number[];
  executed: number;
  revision?: string;
  reason?: string;
}

/**
 * One discovery session: the four tools, the budgets, the events, and the record of what
 * executed, which `complete` compiles into a capability.
 */
export class DiscoverySession {
  readonly #options: SessionOptions;
  readonly #now: () => number;
  readonly #startedAt: number;
  #start: { origin: string; path: string; fingerprint: string } | undefined;
  #executed: ExecutedAction[] = [];
  #outputs = new Map<string, string>();
  #steps = 0;
  #rejected = 0;
  #outcome: SessionOutcome = 'running';
  #reason: string | undefined;
  #revision: string | undefined;
  #capability: Capability | undefined;
  readonly observationTokens: number[] = [];
  uiActions = 0;

  constructor(options: SessionOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#startedAt = this.#now();
  }

  get capability(): Capability | undefined {
    return this.#capability;
  }

  get outcome(): SessionOutcome {
    return this.#outcome;
  }

  status(): SessionStatus {
    return {
      outcome: this.#outcome,
      steps: this.#steps,
      rejected: this.#rejected,
      elapsedMs: this.#now() - this.#startedAt,
      observations: [...this.observationTokens],
      executed: this.#executed.length,
      ...(this.#revision ? { revision: this.#revision } : {}),
      ...(this.#reason ? { reason: this.#reason } : {}),
    };
  }

  #emit(type: string, data: Record<string, unknown> = {}): void {
    this.#options.emit({ type, ...data });
  }

  /** Adds an explorer's own event (a model call, a retry) to the session's run log. */
  record(type: string, data: Record<string, unknown> = {}): void {
    this.#emit(type, data);
  }

  /** Opens the start page and records its fingerprint: the capability's precondition. */
  async start(): Promise<void> {
    const { task } = this.#options;
    await this.#options.ui.open(task.startUrl);
    const { fingerprint } = await this.#options.ui.fingerprint();
    const url = new URL(task.startUrl);
    this.#start = { origin: url.origin, path: `${url.pathname}${url.search}`, fingerprint };
    this.#emit('discovery-start', {
      task: task.name,
      inputs: task.inputs.map((input) => input.name),
      outputs: task.outputs.map((output) => `${output.name}:${output.type}`),
      explorer: this.#options.explorer,
      budgets: this.#options.budgets,
    });
  }

  /** The one entry point of every explorer: validates, enforces budgets, dispatches, records. */
  async call(name: string, args: unknown): Promise<ToolReply> {
    if (this.#outcome !== 'running') {
      return { ok: false, error: 'BUDGET_EXHAUSTED', message: `The session has ended (${this.#outcome}).` };
    }
    const exhausted = this.#budgetExhausted();
    if (exhausted) return this.#end('budget_exhausted', exhausted);
    this.#steps++;
    if (!isExplorerTool(name)) {
      this.#rejected++;
      this.#emit('tool-rejected', { tool: name, reason: 'unknown tool' });
      return {
        ok: false,
        error: 'UNKNOWN_TOOL',
        message: `There is no tool '${name}'.`,
        hint: `Available tools: ${EXPLORER_TOOL_NAMES.join(', ')}.`,
      };
    }
    const parsed = EXPLORER_TOOLS[name].schema.safeParse(args ?? {});
    if (!parsed.success) {
      this.#rejected++;
      this.#emit('tool-rejected', { tool: name, reason: 'bad arguments' });
      return {
        ok: false,
        error: 'BAD_INPUT',
        message: `Invalid arguments for ${name}:\n${z.prettifyError(parsed.error)}`,
        hint: `A correct call: ${JSON.stringify(EXAMPLES[name])}`,
        example: EXAMPLES[name],
      };
    }
    try {
      return await this.#dispatch(name, parsed.data);
    } finally {
      const after = this.#budgetExhausted();
      if (after && this.#outcome === 'running') this.#end('budget_exhausted', after);
    }
  }

  async #dispatch(name: ExplorerToolName, args: unknown): Promise<ToolReply> {
    switch (name) {
      case 'observe':
        return this.#observe(args as ObserveArgs);
      case 'act':
        return this.#act(args as ActArgs);
      case 'request_handoff':
        return this.#handoff(args as HandoffArgs);
      case 'complete':
        return this.#complete(args as CompleteArgs);
    }
  }

  #budgetExhausted(): string | undefined {
    const { budgets } = this.#options;
    if (this.#steps >= budgets.steps) return `the step budget (${budgets.steps}) is used up`;
    if (this.#now() - this.#startedAt > budgets.seconds * 1000)
      return `the time budget (${budgets.seconds} s) is used up`;
    if (this.#rejected > budgets.rejected) return `more than ${budgets.rejected} actions were rejected`;
    return undefined;
  }

  #end(outcome: SessionOutcome, reason: string): ToolReply {
    this.#outcome = outcome;
    this.#reason = reason;
    this.#emit('discovery-end', { outcome, reason, steps: this.#steps, rejected: this.#rejected });
    return {
      ok: false,
      error: outcome === 'budget_exhausted' ? 'BUDGET_EXHAUSTED' : 'INTERNAL_ERROR',
      message: `The session ended: ${reason}.`,
    };
  }

  /** Ends a session an explorer gave up on (or that failed), recording why. */
  abandon(reason: string, outcome: SessionOutcome = 'abandoned'): void {
    if (this.#outcome !== 'running') return;
    this.#end(outcome, reason);
  }

  async #observe(args: ObserveArgs): Promise<ToolReply> {
    const { observation, screenshotPath } = await this.#options.ui.observe({
      ...(args.screenshot ? { screenshot: true } : {}),
      ...(args.find ? { find: args.find } : {}),
    });
    this.observationTokens.push(observation.tokens);
    this.#emit('observation', {
      tokens: observation.tokens,
      full_tokens: observation.fullTokens,
      truncated: observation.truncated,
      state: observation.state,
    });
    return {
      ok: true,
      state: observation.state,
      tokens: observation.tokens,
      truncated: observation.truncated,
      observation: observation.text,
      ...(screenshotPath ? { screenshot: screenshotPath } : {}),
    };
  }

  async #act(args: ActArgs): Promise<ToolReply> {
    const outputs = new Map(this.#options.task.outputs.map((output) => [output.name, output]));
    // Reads into names the task does not return are refused before anything runs.
    for (const action of args.actions) {
      if (action.op === 'read' && !outputs.has(action.as)) {
        this.#rejected++;
        this.#emit('action', { op: 'read', status: 'rejected', reason: 'undeclared output' });
        return {
          ok: false,
          error: 'BAD_INPUT',
          message: `'${action.as}' is not an output of this task.`,
          hint: `Read into one of: ${[...outputs.keys()].join(', ')}.`,
          example: { op: 'read', target: action.target, as: [...outputs.keys()][0] },
        };
      }
    }
    this.#steps += args.actions.length - 1;
    const results = await this.#options.ui.act(args.actions as UiActionInput[]);
    const reads = this.#options.ui.reads();
    const dialogs = this.#options.ui.acceptedDialogs();
    const replies = results.map((result) => {
      const action = args.actions[result.index]!;
      let status = result.status;
      let message = result.message;
      let hint = result.hint;
      if (status === 'executed') this.uiActions++;
      if (status === 'executed' && action.op === 'read') {
        const spec = outputs.get(action.as)!;
        const raw = reads[action.as] ?? '';
        if (parseTypedValue(raw, spec.type) === undefined) {
          status = 'rejected';
          message = `The read of ${action.as} did not hold a ${spec.type}; nothing was stored.`;
          hint = 'Read the element that shows exactly this value (a table cell by row and column).';
        } else {
          this.#outputs.set(action.as, raw);
          message = `Read ${action.as}: a valid ${spec.type}. The value goes to the task, not to you.`;
        }
      }
      if (status === 'rejected') this.#rejected++;
      const compiled = status === 'executed' ? this.#record(action, result, dialogs) : undefined;
      this.#emit('action', {
        index: result.index,
        op: result.op,
        status,
        ...(result.effect ? { effect: result.effect } : {}),
        ...(result.code ? { code: result.code } : {}),
        ...(result.blockedBy ? { blocked_by: result.blockedBy } : {}),
        ...(result.risk ? { risk: result.risk } : {}),
        compiled: compiled ?? false,
        message,
        ms: result.durationMs,
      });
      return {
        index: result.index,
        op: result.op,
        status,
        ...(result.effect ? { effect: result.effect } : {}),
        ...(result.code ? { code: result.code } : {}),
        message,
        ...(hint ? { hint } : {}),
        ...(result.example ? { example: result.example } : {}),
        ...(result.blockedBy ? { blocked_by: result.blockedBy } : {}),
        ...(result.element ? { element: result.element } : {}),
      };
    });
    const rejected = replies.filter((reply) => reply.status === 'rejected').length;
    return { ok: true, results: replies, ...(rejected > 0 ? { rejected } : {}) };
  }

  /** Keeps an executed action for the compiler when it did what it was for. */
  #record(action: ActArgs['actions'][number], result: StepResult, dialogs: string[]): boolean {
    const target = result.resolved?.target;
    const worked =
      result.effect === 'changed' ||
      result.effect === 'none' ||
      (result.effect === 'no_change' && action.op === 'fill');
    if (!worked || result.uncertain) return false;
    const withTarget = (make: (target: Target) => ExecutedAction): boolean => {
      if (!target) return false;
      this.#executed.push(make(target));
      return true;
    };
    switch (action.op) {
      case 'click':
        return withTarget((t) => ({ op: 'click', target: t }));
      case 'fill':
      case 'select': {
        const value =
          typeof action.value === 'string' ? { literal: action.value } : { input: action.value.input };
        return withTarget((t) => ({ op: action.op as 'fill', target: t, value }));
      }
      case 'check':
        return withTarget((t) => ({ op: 'check', target: t, checked: action.checked }));
      case 'press':
        return withTarget((t) => ({ op: 'press', target: t, key: action.key }));
      case 'wait_for':
        return withTarget((t) => ({ op: 'wait_for', target: t }));
      case 'read':
        return withTarget((t) => ({ op: 'read', target: t, output: action.as }));
      case 'navigate':
        if (!result.resolved?.url || (action.frame && action.frame.length > 0)) return false;
        this.#executed.push({ op: 'navigate', url: result.resolved.url });
        return true;
      case 'dialog': {
        const message = dialogs.at(-1);
        if (action.response !== 'accept' || !message) return false;
        this.#executed.push({ op: 'dialog', accepted: true, message });
        return true;
      }
      case 'reload':
        return false;
    }
  }

  async #handoff(args: HandoffArgs): Promise<ToolReply> {
    const { handoff } = this.#options;
    this.#emit('handoff-requested', { reason: args.reason, attended: handoff !== undefined });
    if (!handoff) {
      return {
        ok: false,
        error: 'HANDOFF_REQUIRED',
        message: 'No person is attending this session, so nobody can take over.',
        hint: 'Run the session attended (lift session handoff ID, or --headed), or end it.',
      };
    }
    const deadline = this.#options.handoffDeadlineMs ?? 5 * 60_000;
    const t0 = this.#now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        handoff(args.reason, deadline),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new LiftError('TIMEOUT', `Nobody finished the handoff within ${deadline} ms.`)),
            deadline,
          );
        }),
      ]);
    } catch (error) {
      this.#emit('handoff-end', { done: false, ms: this.#now() - t0 });
      return { ok: false, error: 'TIMEOUT', message: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
    // What ran before the handoff belongs to a page that is gone: compile one clean pass.
    await this.#options.ui.open(this.#options.task.startUrl);
    this.#executed = [];
    this.#outputs.clear();
    this.#emit('handoff-end', { done: true, ms: this.#now() - t0 });
    return {
      ok: true,
      resumed: true,
      message: 'The person is done. The session is back on the start page; repeat the task from there.',
    };
  }

  async #complete(args: CompleteArgs): Promise<ToolReply> {
    const { task } = this.#options;
    let checkpointTarget: Target | undefined;
    if ('ref' in args.checkpoint.target) {
      checkpointTarget = this.#options.ui.refs().get(args.checkpoint.target.ref)?.target;
      if (!checkpointTarget) {
        this.#rejected++;
        return {
          ok: false,
          error: 'BAD_INPUT',
          message: `[${args.checkpoint.target.ref}] is not a ref of the latest observation.`,
          hint: 'Observe again and name the element that shows the bound input.',
        };
      }
    } else {
      checkpointTarget = args.checkpoint.target;
    }
    if (!task.inputs.some((input) => input.name === args.checkpoint.input)) {
      this.#rejected++;
      return {
        ok: false,
        error: 'BAD_INPUT',
        message: `'${args.checkpoint.input}' is not an input of this task.`,
        hint: `Inputs: ${task.inputs.map((input) => input.name).join(', ')}.`,
      };
    }
    const missing = task.outputs
      .filter((output) => !this.#outputs.has(output.name))
      .map((output) => output.name);
    const unnamed = task.outputs
      .filter((output) => !args.outputs.includes(output.name))
      .map((output) => output.name);
    if (missing.length > 0 || unnamed.length > 0) {
      this.#rejected++;
      return {
        ok: false,
        error: 'CHECK_FAILED',
        message: `The task is not done: ${[...new Set([...missing, ...unnamed])].join(', ')} not read or not named.`,
        hint: `Read each output with {"op":"read","target":…,"as":"NAME"} and name them all in complete.outputs.`,
      };
    }
    const start = this.#start;
    if (!start) throw new LiftError('INTERNAL_ERROR', 'The session was not started.');
    try {
      const capability = compileCapability({
        name: task.name,
        intent: task.intent,
        inputs: task.inputs,
        outputs: task.outputs,
        bound: task.bound,
        start,
        actions: this.#executed,
        checkpoint: {
          target: checkpointTarget,
          input: args.checkpoint.input,
          ...(args.checkpoint.match ? { match: args.checkpoint.match } : {}),
        },
        outcomes: task.outcomes ?? ['found', 'not_found'],
        provenance: {
          explorer: this.#options.explorer,
          ...(this.#options.model ? { model: this.#options.model } : {}),
          runId: this.#options.runId,
          createdAt: new Date(this.#now()).toISOString(),
          liftVersion: this.#options.liftVersion,
        },
      });
      const { revision } = this.#options.save(capability);
      this.#capability = capability;
      this.#revision = revision;
      this.#outcome = 'completed';
      this.#emit('discovery-end', {
        outcome: 'completed',
        revision,
        steps: capability.steps.length,
        session_steps: this.#steps,
        rejected: this.#rejected,
      });
      return { ok: true, revision, name: capability.name, steps: capability.steps.length };
    } catch (error) {
      if (!(error instanceof LiftError)) throw error;
      this.#rejected++;
      this.#emit('complete-rejected', { code: error.code, message: error.message });
      return {
        ok: false,
        error: error.code,
        message: error.message,
        ...(error.hint ? { hint: error.hint } : {}),
      };
    }
  }
}

const EXAMPLES: Record<ExplorerToolName, unknown> = {
  observe: {},
  act: { actions: [{ op: 'fill', target: { ref: 'f1e4' }, value: { input: 'memberId' } }] },
  request_handoff: { reason: 'The session expired; please sign in again.' },
  complete: {
    outputs: ['savingsBalance', 'currency'],
    checkpoint: {
      target: { frame: ['Workspace'], locator: { by: 'cell', row: '…', column: 'Member ID' } },
      input: 'memberId',
    },
  },
};
