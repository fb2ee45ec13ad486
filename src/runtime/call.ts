import type { ApprovalRecord } from '../contract/context.js';
import type { AnyTool } from '../contract/define-tool.js';
import type { Envelope, ErrorEnvelope } from '../contract/envelope.js';
import { errorAdvice, isLiftError, LiftError } from '../contract/errors.js';
import type { RunEventType } from '../contract/events.js';
import { neverConnected } from '../contract/unreachable.js';
import type { Awaitable } from '../store/awaitable.js';
import { hashValue } from '../store/canonical.js';
import type { RunEvent } from '../store/runs.js';
import { type CallParts, Stop } from './call-context.js';
import type { Runtime } from './runtime.js';

export interface InvokeOptions {
  /** Makes two calls the same call; overrides `request_id` in the input. */
  requestId?: string;
  /** Appends this call's events to an existing run instead of starting one. */
  runId?: string;
  /** Cancels the call (an MCP cancellation, a person pressing Ctrl-C). */
  signal?: AbortSignal;
  /** Set by Runtime.approve only: the approval that releases this held call. */
  approvalId?: string;
  /**
   * Set by Runtime.approve only, when it takes over an approved call whose approver died:
   * the claim that process left is taken over, and the tool's settle read decides whether
   * the call runs or its landed result is reported.
   */
  settleFirst?: boolean;
  /**
   * Hears each event of the call as the run log records it, before secrets are scrubbed (the
   * listener scrubs what it passes on). For progress and log lines while the call runs.
   */
  onEvent?: (event: RunEvent, runId: string) => void;
  /**
   * The folders the caller opened to path tools (an MCP client's roots, a held call's roots),
   * in place of the runtime's default roots; families with roots of their own keep them.
   */
  roots?: readonly string[];
}

let lastMs = 0;
let lastIso = '';
let lastSecond = Number.NaN;
let secondPrefix = '';

/**
 * ISO time of now. The events of one call mostly share a millisecond and calls share a
 * second, so both parts are reused instead of formatting a Date per event.
 */
function now(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    const second = Math.floor(ms / 1000);
    if (second !== lastSecond) {
      lastSecond = second;
      secondPrefix = new Date(second * 1000).toISOString().slice(0, 20);
    }
    lastIso = `${secondPrefix}${String(ms - second * 1000).padStart(3, '0')}Z`;
  }
  return lastIso;
}

/** The call's request id: the option, else the input's own request_id field. */
export function requestIdOf(input: unknown, options: InvokeOptions): string | undefined {
  if (options.requestId) return options.requestId;
  if (input && typeof input === 'object' && 'request_id' in input) {
    const value = (input as { request_id: unknown }).request_id;
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
}

/**
 * One call's state as it passes the stages of `invoke`: its events, its input once valid,
 * its claim on the ledger, its deadline, and how it ends. Fields and methods on one object
 * rather than closures made per call: a no-op read should cost what the contract costs.
 */
export class Call implements CallParts {
  started = false;
  readonly events: RunEvent[] = [];
  readonly t0 = performance.now();
  last = this.t0;
  readonly tool: AnyTool | undefined;
  readonly toolName: string;
  readonly runId: string;
  readonly ownRun: boolean;
  /** The approval that released this call (set by the gate stage). */
  approval: ApprovalRecord | undefined;
  requestId: string | undefined;
  /** The validated input (the raw input until the validate stage has run). */
  input: unknown;
  /** Whether this call holds the ledger's claim on its request id. */
  claimed = false;
  /** Whether the settle read runs before the implementation (see InvokeOptions.settleFirst). */
  settling = false;
  #inputHash: string | undefined;
  deadline = 0;
  readonly stop = new Stop();

  constructor(
    readonly runtime: Runtime,
    toolOrName: AnyTool | string,
    rawInput: unknown,
    readonly options: InvokeOptions,
  ) {
    this.tool = typeof toolOrName === 'string' ? runtime.registry.get(toolOrName) : toolOrName;
    this.toolName = typeof toolOrName === 'string' ? toolOrName : toolOrName.name;
    this.ownRun = options.runId === undefined;
    this.runId = options.runId ?? runtime.store.runs.newId();
    this.input = rawInput;
    this.takeRequestId(rawInput);
  }

  /** Reads the request id from the options or the input (again once the input is valid). */
  takeRequestId(input: unknown): void {
    this.requestId = requestIdOf(input, this.options);
  }

  /** Hash of the canonical input: what makes two calls under one request id the same call. */
  inputHash(): string {
    this.#inputHash ??= hashValue(this.input);
    return this.#inputHash;
  }

  get onEvent(): ((event: RunEvent, runId: string) => void) | undefined {
    return this.options.onEvent;
  }

  get roots(): readonly string[] | undefined {
    return this.options.roots;
  }

  event(type: RunEventType, data?: Record<string, unknown>): void {
    const at = performance.now();
    const event = { t: now(), type, duration_ms: Math.round((at - this.last) * 1000) / 1000, ...data };
    this.events.push(event);
    this.last = at;
    this.options.onEvent?.(event, this.runId);
  }

  markStarted(): void {
    this.started = true;
  }

  elapsed(): number {
    return Math.round((performance.now() - this.t0) * 100) / 100;
  }

  /** Scrubs the envelope of secrets, logs the end of the call, and hands the envelope back. */
  finish<T extends Envelope>(envelope: T): T {
    const { runs, secrets } = this.runtime.store;
    // Walking the envelope costs less than serialising it, which every call used to do.
    const clean = secrets.scrubValue(envelope);
    this.event(
      'call-end',
      'error' in clean
        ? { tool: this.toolName, ok: clean.ok, code: clean.error.code }
        : { tool: this.toolName, ok: clean.ok },
    );
    if (this.ownRun)
      runs.record(this.runId, 'call', this.toolName, this.events, 'pending' in clean ? 'held' : clean.ok);
    else runs.append(this.runId, this.events);
    return clean;
  }

  fail(error: LiftError): ErrorEnvelope {
    return this.finish(errorEnvelope(this, error));
  }

  /** Ends the ledger's claim of a call that failed: forgotten if nothing was sent, else unknown. */
  releaseClaim(outcome: LiftError['outcome']): Awaitable<void> {
    if (!this.claimed || !this.requestId) return;
    const { ledger } = this.runtime.store;
    this.claimed = false;
    return outcome === 'unknown'
      ? ledger.markUnknown(this.toolName, this.requestId)
      : ledger.forget(this.toolName, this.requestId);
  }
}

function errorEnvelope(call: Call, error: LiftError): ErrorEnvelope {
  const settle = error.settle ?? (error.outcome === 'unknown' ? call.tool?.timeout.settle : undefined);
  return {
    ok: false,
    tool: call.toolName,
    error: {
      code: error.code,
      message: error.message,
      ...errorAdvice(error.code, error, call.tool?.errors?.[error.code]),
      ...(error.outcome ? { outcome: error.outcome } : {}),
      ...(settle ? { settle } : {}),
      ...(error.details ? { details: error.details } : {}),
    },
    run_id: call.runId,
    ...(call.requestId ? { request_id: call.requestId } : {}),
    duration_ms: call.elapsed(),
  };
}

export function asLiftError(error: unknown, started: boolean): LiftError {
  if (isLiftError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  // The program could not be reached: no bug of Lift's. Once something else may have reached
  // a system, what this call did is still unknown.
  const reason = neverConnected(error);
  if (reason) {
    return new LiftError('UPSTREAM_UNAVAILABLE', `The program could not be reached (${reason}): ${message}`, {
      outcome: started ? 'unknown' : 'not_started',
      cause: error,
    });
  }
  return new LiftError('INTERNAL_ERROR', message, {
    outcome: started ? 'unknown' : 'not_started',
    cause: error,
  });
}
