import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ApprovalRecord, ToolContext, ToolEvent } from '../contract/context.js';
import type { AnyTool } from '../contract/define-tool.js';
import type { Envelope } from '../contract/envelope.js';
import { LiftError } from '../contract/errors.js';
import type { RunEventType } from '../contract/events.js';
import { type PathScope, PRIVATE_DIR_MODE, type UrlScope } from '../contract/paths.js';
import type { RunEvent } from '../store/runs.js';
import { resolveInRoots, resolveOutput } from './roots.js';
import type { Runtime } from './runtime.js';
import { fetchAllowed } from './urls.js';

/**
 * A call's deadline and cancellation. The AbortSignal a tool sees is made only when it asks
 * for it, and the deadline timer and the caller's cancellation are armed only once the call
 * has to wait: most calls need neither, and making them per call cost more than a no-op read.
 */
export class Stop {
  /** Calls begun in this turn of the event loop, armed together just after it. */
  static #begun: Stop[] = [];
  static #arming: NodeJS.Immediate | undefined;
  static #armBegun = (): void => {
    Stop.#arming = undefined;
    const begun = Stop.#begun;
    Stop.#begun = [];
    for (const stop of begun) stop.#armNow();
  };

  #controller: AbortController | undefined;
  #reason: LiftError | undefined;
  /** Rejects the work being raced, if any. */
  #reject: ((reason: unknown) => void) | undefined;
  #deadline = 0;
  #tool: AnyTool | undefined;
  #cancel: AbortSignal | undefined;
  #onCancel: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #over = false;
  /** The deadline is watched (#armNow ran); a paused one restarts its timer on resume. */
  #armed = false;
  /** How many waits for a person are open, and since when the first one is. */
  #pauses = 0;
  #pausedAt = 0;

  /** Epoch milliseconds at which the call ends with TIMEOUT (later by every wait for a person). */
  get deadline(): number {
    return this.#deadline;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#reason) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  abort(reason: LiftError): void {
    if (this.#reason) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#reject?.(reason);
  }

  /** The work's result, or a rejection with the reason as soon as the call is stopped. */
  race<T>(work: T | Promise<T>): Promise<T> {
    if (this.#reason) return Promise.reject(this.#reason);
    return new Promise<T>((resolve, reject) => {
      this.#reject = reject;
      Promise.resolve(work).then(resolve, reject);
    });
  }

  /**
   * Stops the call of `tool` at `deadline` (epoch ms), or when `cancel` aborts. Both are
   * armed just after the current turn of the event loop: a cancellation can only arrive in a
   * later turn, and a call that is over by then can neither time out nor be cancelled.
   */
  arm(deadline: number, tool: AnyTool, cancel: AbortSignal | undefined): void {
    this.#deadline = deadline;
    this.#tool = tool;
    this.#cancel = cancel;
    if (cancel?.aborted) {
      this.#cancelled();
      return;
    }
    // Calls that never yield to the event loop (an in-memory client) must not pile up here.
    if (Stop.#begun.length >= 256) Stop.#begun = Stop.#begun.filter((stop) => !stop.#over);
    Stop.#begun.push(this);
    Stop.#arming ??= setImmediate(Stop.#armBegun);
  }

  /**
   * A person is acting (a handoff): the deadline stops until `resume`, then moves on by the
   * time they took. Cancellation by the caller still stops the call meanwhile.
   */
  pause(): void {
    if (this.#pauses++ > 0) return;
    this.#pausedAt = Date.now();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  resume(): void {
    if (this.#pauses === 0 || --this.#pauses > 0) return;
    this.#deadline += Date.now() - this.#pausedAt;
    if (this.#armed && !this.#over) this.#startTimer();
  }

  /** The call is over: nothing may stop it any more. */
  disarm(): void {
    this.#over = true;
    this.#reject = undefined;
    if (Stop.#begun.at(-1) === this) Stop.#begun.pop();
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#onCancel) this.#cancel?.removeEventListener('abort', this.#onCancel);
    this.#timer = undefined;
    this.#onCancel = undefined;
  }

  #armNow(): void {
    if (this.#over) return;
    this.#armed = true;
    if (this.#pauses === 0) this.#startTimer();
    if (!this.#cancel) return;
    if (this.#cancel.aborted) {
      this.#cancelled();
      return;
    }
    this.#onCancel = () => this.#cancelled();
    this.#cancel.addEventListener('abort', this.#onCancel, { once: true });
  }

  #startTimer(): void {
    const tool = this.#tool as AnyTool;
    this.#timer = setTimeout(
      () =>
        this.abort(
          new LiftError('TIMEOUT', `${tool.name} timed out after ${tool.timeout.deadlineMs} milliseconds.`),
        ),
      Math.max(0, this.#deadline - Date.now()),
    );
  }

  #cancelled(): void {
    this.abort(new LiftError('CANCELLED', 'The caller cancelled the call.'));
  }
}

/** Where a call's events go, and who hears that it started sending. */
export interface CallLog {
  /** Appends an event to the call's log. */
  event(type: RunEventType, data?: Record<string, unknown>): void;
  /** Says that something may now have reached the system. */
  markStarted(): void;
  /** Who hears the call's events as they happen (calls made through ctx.call are heard too). */
  readonly onEvent: ((event: RunEvent, runId: string) => void) | undefined;
}

/** What the context of a call reads of the call itself (the call's own state object). */
export interface CallParts extends CallLog {
  readonly toolName: string;
  readonly stop: Stop;
  readonly deadline: number;
  readonly runId: string;
  readonly requestId: string | undefined;
  /** The approval that released this call, if a gate held it. */
  readonly approval: ApprovalRecord | undefined;
  /** The folders the caller opened to path tools, in place of the runtime's default roots. */
  readonly roots: readonly string[] | undefined;
}

/**
 * What an implementation sees of its call. Methods live on the prototype rather than as
 * closures made per call: a no-op read should cost what the contract costs, no more.
 */
export class CallContext implements ToolContext {
  readonly #runtime: Runtime;
  readonly #parts: CallParts;
  readonly runId: string;
  readonly requestId: string | undefined;
  readonly approval: ApprovalRecord | undefined;

  constructor(runtime: Runtime, parts: CallParts) {
    this.#runtime = runtime;
    this.#parts = parts;
    this.runId = parts.runId;
    this.requestId = parts.requestId;
    this.approval = parts.approval;
  }

  /** The call's deadline, moved on by every wait for a person. */
  get deadline(): number {
    return this.#parts.stop.deadline;
  }

  get approved(): boolean {
    return this.approval !== undefined;
  }

  get signal(): AbortSignal {
    return this.#parts.stop.signal;
  }

  get outputDir(): string {
    return join(this.#runtime.outputDir, this.#parts.toolName);
  }

  resolvePath(path: string, scope: PathScope): string {
    return resolveInRoots(this.#runtime.paths, path, scope, this.#parts.roots);
  }

  fetchUrl(url: string, scope: UrlScope): Promise<Buffer> {
    return fetchAllowed(this.#runtime.paths, url, scope, this.signal);
  }

  outputFile(name: string): string {
    const file = resolveOutput(this.#runtime.paths, join(this.outputDir, name));
    mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    return file;
  }

  secret(name: string): string {
    return this.#runtime.store.secrets.get(name);
  }

  hasSecret(name: string): boolean {
    return this.#runtime.store.secrets.has(name);
  }

  holdsSecret(text: string): boolean {
    return this.#runtime.store.secrets.foundIn(text);
  }

  emit(event: ToolEvent): void {
    const { type, ...data } = event;
    this.#parts.event(type, data);
  }

  markStarted(): void {
    this.#parts.markStarted();
  }

  service<T>(name: string, create: () => T | Promise<T>): Promise<T> {
    return this.#runtime.service(name, create);
  }

  async awaitPerson<T>(work: Promise<T>): Promise<T> {
    const { stop } = this.#parts;
    stop.pause();
    try {
      return await work;
    } finally {
      stop.resume();
    }
  }

  tool(name: string): AnyTool | undefined {
    return this.#runtime.registry.get(name);
  }

  call(toolName: string, input: unknown): Promise<Envelope> {
    const { onEvent, roots } = this.#parts;
    // A call made for this one (a chain's step, a read-back) reaches the folders this one may.
    return this.#runtime.invoke(toolName, input, {
      runId: this.runId,
      ...(onEvent ? { onEvent } : {}),
      ...(roots ? { roots } : {}),
    });
  }

  fail(
    code: LiftError['code'],
    message: string,
    options?: ConstructorParameters<typeof LiftError>[2],
  ): never {
    throw new LiftError(code, message, options);
  }
}
