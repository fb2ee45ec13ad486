import { join } from 'node:path';
import type { ToolContext, ToolEvent } from '../contract/context.js';
import type { AnyTool } from '../contract/define-tool.js';
import type { Envelope } from '../contract/envelope.js';
import { LiftError } from '../contract/errors.js';
import type { Runtime } from './runtime.js';

/**
 * A call's deadline and cancellation. The AbortSignal a tool sees is made only when it asks
 * for it, and the deadline timer and the caller's cancellation are armed only once the call
 * has to wait: most calls need neither, and making them per call cost more than a no-op read.
 */
export class Stop {
  #controller: AbortController | undefined;
  #reason: LiftError | undefined;
  #reject: ((reason: unknown) => void) | undefined;
  #arming: NodeJS.Immediate | undefined;
  #timer: NodeJS.Timeout | undefined;
  #cancel: { signal: AbortSignal; listener: () => void } | undefined;
  /** Rejects with the reason when the call is stopped. */
  readonly aborted = new Promise<never>((_, reject) => {
    this.#reject = reject;
  });

  constructor() {
    // Nobody may be racing it when the call ends first.
    this.aborted.catch(() => undefined);
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

  /**
   * Stops the call at `deadline` (epoch ms) with `timeout`, or when `cancel` aborts. Both are
   * armed just after the current turn of the event loop: a cancellation can only arrive in a
   * later turn, and a call that is done by then can neither time out nor be cancelled.
   */
  arm(deadline: number, timeout: () => LiftError, cancel: AbortSignal | undefined): void {
    const cancelled = () => this.abort(new LiftError('CANCELLED', 'The caller cancelled the call.'));
    if (cancel?.aborted) {
      cancelled();
      return;
    }
    this.#arming = setImmediate(() => {
      this.#arming = undefined;
      this.#timer = setTimeout(() => this.abort(timeout()), Math.max(0, deadline - Date.now()));
      if (!cancel) return;
      if (cancel.aborted) cancelled();
      else {
        cancel.addEventListener('abort', cancelled, { once: true });
        this.#cancel = { signal: cancel, listener: cancelled };
      }
    });
  }

  /** The call is over: nothing may stop it any more. */
  disarm(): void {
    if (this.#arming) clearImmediate(this.#arming);
    if (this.#timer) clearTimeout(this.#timer);
    this.#cancel?.signal.removeEventListener('abort', this.#cancel.listener);
    this.#arming = undefined;
    this.#timer = undefined;
    this.#cancel = undefined;
  }
}

export interface CallParts {
  tool: AnyTool;
  stop: Stop;
  deadline: number;
  runId: string;
  requestId: string | undefined;
  approved: boolean;
  emit(type: string, data: Record<string, unknown>): void;
  markStarted(): void;
}

/**
 * What an implementation sees of its call. Methods live on the prototype rather than as
 * closures made per call: a no-op read should cost what the contract costs, no more.
 */
export class CallContext implements ToolContext {
  readonly #runtime: Runtime;
  readonly #parts: CallParts;
  readonly deadline: number;
  readonly runId: string;
  readonly requestId: string | undefined;
  readonly approved: boolean;

  constructor(runtime: Runtime, parts: CallParts) {
    this.#runtime = runtime;
    this.#parts = parts;
    this.deadline = parts.deadline;
    this.runId = parts.runId;
    this.requestId = parts.requestId;
    this.approved = parts.approved;
  }

  get signal(): AbortSignal {
    return this.#parts.stop.signal;
  }

  get outputDir(): string {
    return join(this.#runtime.outputDir, this.#parts.tool.name);
  }

  secret(name: string): string {
    return this.#runtime.store.secrets.get(name);
  }

  hasSecret(name: string): boolean {
    return this.#runtime.store.secrets.has(name);
  }

  emit(event: ToolEvent): void {
    const { type, ...data } = event;
    this.#parts.emit(type, data);
  }

  markStarted(): void {
    this.#parts.markStarted();
  }

  service<T>(name: string, create: () => T | Promise<T>): Promise<T> {
    return this.#runtime.service(name, create);
  }

  tool(name: string): AnyTool | undefined {
    return this.#runtime.registry.get(name);
  }

  call(toolName: string, input: unknown): Promise<Envelope> {
    return this.#runtime.invoke(toolName, input, { runId: this.runId });
  }

  fail(
    code: LiftError['code'],
    message: string,
    options?: ConstructorParameters<typeof LiftError>[2],
  ): never {
    throw new LiftError(code, message, options);
  }
}
