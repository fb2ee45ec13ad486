import { z } from 'zod';
import { type Capability, MAX_ERROR_PAGES } from '../capability/capability.js';
import type { ToolEvent } from '../contract/context.js';
import { type ErrorCode, isLiftError, LiftError } from '../contract/errors.js';
import type { RunEventType } from '../contract/events.js';
import { UI_DEFAULTS } from '../rungs/ui/defaults.js';
import type { Awaitable } from '../store/awaitable.js';
import { parameteriseText } from './compile.js';
import { DiscoveryRecord, type ExplorerContext, type StartPage } from './explorer-context.js';
import {
  EXPLORER_TOOL_NAMES,
  EXPLORER_TOOLS,
  type ExplorerAnswer,
  isExplorerTool,
} from './explorer-tools.js';
import { textKey } from './rehearse.js';
import type { Budgets, DiscoveryTask, SessionOutcome, SessionStatus, ToolReply, UiDriver } from './types.js';

export type { Budgets, DiscoveryTask, SessionOutcome, SessionStatus, ToolReply, UiDriver } from './types.js';

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
  save: (capability: Capability) => Awaitable<{ revision: string; file: string }>;
  /** A person takes over; resolves when they say done. Absent in unattended runs. */
  handoff?: (reason: string, deadlineMs: number) => Promise<void>;
  handoffDeadlineMs?: number;
  now?: () => number;
}

/** A tool's failure as the explorer reads it: the code, what happened, and how to do better. */
function failureReply(error: LiftError): ToolReply {
  const example = error.details?.example;
  return {
    ok: false,
    error: error.code,
    message: error.message,
    ...(error.hint ? { hint: error.hint } : {}),
    ...(example !== undefined ? { example } : {}),
  };
}

/**
 * One discovery session: the four tools, the budgets, the events, and the record of what
 * executed, which `complete` compiles into a capability.
 */
export class DiscoverySession {
  readonly #options: SessionOptions;
  readonly #now: () => number;
  readonly #startedAt: number;
  readonly #record = new DiscoveryRecord();
  readonly #context: ExplorerContext;
  #start: StartPage | undefined;
  #steps = 0;
  #rejected = 0;
  #outcome: SessionOutcome = 'running';
  #reason: string | undefined;
  #revision: string | undefined;
  #capability: Capability | undefined;

  constructor(options: SessionOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#startedAt = this.#now();
    this.#context = this.#contextForTools();
  }

  get capability(): Capability | undefined {
    return this.#capability;
  }

  get outcome(): SessionOutcome {
    return this.#outcome;
  }

  /** Tokens of each observation the explorer received. */
  get observationTokens(): number[] {
    return this.#record.observationTokens;
  }

  /** UI actions that executed on the page. */
  get uiActions(): number {
    return this.#record.uiActions;
  }

  status(): SessionStatus {
    return {
      outcome: this.#outcome,
      steps: this.#steps,
      rejected: this.#rejected,
      elapsedMs: this.#now() - this.#startedAt,
      observations: [...this.#record.observationTokens],
      executed: this.#record.executed.length,
      ...(this.#revision ? { revision: this.#revision } : {}),
      ...(this.#reason ? { reason: this.#reason } : {}),
    };
  }

  #emit(type: RunEventType, data: Record<string, unknown> = {}): void {
    this.#options.emit({ type, ...data });
  }

  /** Adds an explorer's own event (a model call, a retry) to the session's run log. */
  record(type: RunEventType, data: Record<string, unknown> = {}): void {
    this.#emit(type, data);
  }

  /** Opens the start page and records its fingerprint: the capability's precondition. */
  async start(): Promise<void> {
    const { task } = this.#options;
    await this.#options.ui.open(task.startUrl);
    const { fingerprint, loadFingerprint } = await this.#options.ui.fingerprint();
    const url = new URL(task.startUrl);
    this.#start = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      fingerprint,
      ...(loadFingerprint ? { loadFingerprint } : {}),
    };
    await this.#notePage();
    this.#emit('discovery-start', {
      task: task.name,
      inputs: task.inputs.map((input) => input.name),
      outputs: task.outputs.map((output) => `${output.name}:${output.type}`),
      explorer: this.#options.explorer,
      budgets: this.#options.budgets,
    });
  }

  /**
   * The one entry point of every explorer: validates, enforces budgets, runs the tool's
   * handler, and turns its answer or its LiftError into the reply, here and nowhere else.
   */
  async call(name: string, args: unknown): Promise<ToolReply> {
    if (this.#outcome !== 'running') {
      return { ok: false, error: 'BUDGET_EXHAUSTED', message: `The session has ended (${this.#outcome}).` };
    }
    const exhausted = this.#budgetExhausted();
    if (exhausted) return this.#end('budget_exhausted', exhausted);
    this.#steps++;
    try {
      const answer = await this.#run(name, args);
      const refused = everyActionRefused(answer);
      return refused ? { ...answer, ...refused } : { ok: true, ...answer };
    } catch (error) {
      if (!isLiftError(error)) throw error;
      return failureReply(error);
    } finally {
      const after = this.#budgetExhausted();
      if (after && this.#outcome === 'running') this.#end('budget_exhausted', after);
    }
  }

  async #run(name: string, args: unknown): Promise<ExplorerAnswer> {
    if (!isExplorerTool(name)) {
      this.#emit('tool-rejected', { tool: name, reason: 'unknown tool' });
      throw this.#refuse('UNKNOWN_TOOL', `There is no tool '${name}'.`, {
        hint: `Available tools: ${EXPLORER_TOOL_NAMES.join(', ')}.`,
      });
    }
    const tool = EXPLORER_TOOLS[name];
    const parsed = tool.input.safeParse(args ?? {});
    if (!parsed.success) {
      this.#emit('tool-rejected', { tool: name, reason: 'bad arguments' });
      throw this.#refuse('BAD_INPUT', `Invalid arguments for ${name}:\n${z.prettifyError(parsed.error)}`, {
        hint: `A correct call: ${JSON.stringify(tool.example)}`,
        example: tool.example,
      });
    }
    const answer = await tool.handle(this.#context, parsed.data);
    if (name === 'observe' || name === 'act') await this.#notePage();
    return answer;
  }

  /** Keeps what the page shows now, so an outcome example's evidence is only what these never showed. */
  async #notePage(): Promise<void> {
    const { ui } = this.#options;
    const { texts, status } = await ui.pageAnswer();
    const { bound } = this.#options.task;
    const record = this.#record;
    for (const text of texts) {
      const shown = parameteriseText(text.text, bound);
      record.seenTexts.add(textKey({ ...text, text: shown }));
      (record.wrote ? record.textsAfterWrite : record.textsBeforeWrite).add(shown);
    }
    // An error page the application showed is how replay tells its errors, never by their words.
    if (status === undefined || status < 500 || !ui.errorPages) return;
    for (const errorPage of await ui.errorPages())
      if (this.#record.errorPages.size < MAX_ERROR_PAGES) this.#record.errorPages.add(errorPage);
  }

  /** A refused call counts against the rejection budget. */
  #refuse(code: ErrorCode, message: string, options: { hint?: string; example?: unknown } = {}): LiftError {
    this.#rejected++;
    return new LiftError(code, message, {
      ...(options.hint ? { hint: options.hint } : {}),
      ...(options.example !== undefined ? { details: { example: options.example } } : {}),
    });
  }

  #contextForTools(): ExplorerContext {
    const options = this.#options;
    return {
      task: options.task,
      ui: options.ui,
      record: this.#record,
      handoff: options.handoff,
      handoffDeadlineMs: options.handoffDeadlineMs ?? UI_DEFAULTS.handoffTimeoutMs,
      now: () => this.#now(),
      emit: (type, data) => this.#emit(type, data),
      refuse: (code, message, refusal) => this.#refuse(code, message, refusal),
      countSteps: (count) => {
        this.#steps += count;
      },
      countRejected: () => {
        this.#rejected++;
      },
      start: () => {
        if (!this.#start) throw new LiftError('INTERNAL_ERROR', 'The session was not started.');
        return this.#start;
      },
      provenance: () => ({
        explorer: options.explorer,
        ...(options.model ? { model: options.model } : {}),
        runId: options.runId,
        createdAt: new Date(this.#now()).toISOString(),
        liftVersion: options.liftVersion,
      }),
      complete: (capability) => this.#complete(capability),
    };
  }

  async #complete(capability: Capability): Promise<{ revision: string; file: string }> {
    const { revision, file } = await this.#options.save(capability);
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
    return { revision, file };
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
}

/**
 * An act whose every action was rejected did nothing: its reply is no success, though it
 * keeps each action's reason and example.
 */
function everyActionRefused(answer: Record<string, unknown>): Extract<ToolReply, { ok: false }> | undefined {
  const results = answer.results;
  if (!Array.isArray(results) || results.length === 0) return undefined;
  const entries = results as Array<{ status?: string; code?: string }>;
  if (!entries.every((entry) => entry.status === 'rejected')) return undefined;
  return {
    ok: false,
    error: entries[0]?.code ?? 'BAD_INPUT',
    message: `Every action was rejected (${entries.length}); nothing ran. Each result says why.`,
  };
}
