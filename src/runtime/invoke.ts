import { type AnyTool, gateOf, type ToolResult } from '../contract/define-tool.js';
import { gateHoldsCall } from '../contract/effects.js';
import type {
  Check,
  Envelope,
  ErrorEnvelope,
  PendingEnvelope,
  SuccessEnvelope,
} from '../contract/envelope.js';
import { ERROR_CODES, isLiftError, LiftError, type Outcome } from '../contract/errors.js';
import { inputSchemaOf } from '../contract/json-schema.js';
import type { RunEvent } from '../store/runs.js';
import { validateInput } from './bad-input.js';
import { CallContext, type CallLog, Stop } from './call-context.js';
import { hashValue } from './canonical.js';
import { capFields } from './cap.js';
import { previewOf, type ReadPreview } from './preview.js';
import { refuseEscapingPaths } from './roots.js';
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
   * Hears each event of the call as the run log records it, before secrets are scrubbed (the
   * listener scrubs what it passes on). For progress and log lines while the call runs.
   */
  onEvent?: (event: RunEvent, runId: string) => void;
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

function requestIdOf(input: unknown, options: InvokeOptions): string | undefined {
  if (options.requestId) return options.requestId;
  if (input && typeof input === 'object' && 'request_id' in input) {
    const value = (input as { request_id: unknown }).request_id;
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
}

/**
 * One call's state: its events, whether it started sending, and how it ends. Methods on
 * one object rather than closures made per call: a no-op read should cost what the
 * contract costs, no more.
 */
class Call implements CallLog {
  started = false;
  readonly events: RunEvent[] = [];
  readonly t0 = performance.now();
  last = this.t0;
  requestId: string | undefined;

  constructor(
    readonly runtime: Runtime,
    readonly tool: AnyTool | undefined,
    readonly toolName: string,
    readonly runId: string,
    readonly ownRun: boolean,
    readonly onEvent: ((event: RunEvent, runId: string) => void) | undefined,
  ) {}

  event(type: string, data?: Record<string, unknown>): void {
    const at = performance.now();
    const event = { t: now(), type, duration_ms: Math.round((at - this.last) * 1000) / 1000, ...data };
    this.events.push(event);
    this.last = at;
    this.onEvent?.(event, this.runId);
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
      'end',
      'error' in clean
        ? { tool: this.toolName, ok: clean.ok, code: clean.error.code }
        : { tool: this.toolName, ok: clean.ok },
    );
    if (this.ownRun) runs.record(this.runId, 'call', this.toolName, this.events, clean.ok);
    else runs.append(this.runId, this.events);
    return clean;
  }

  fail(error: LiftError): ErrorEnvelope {
    return this.finish(
      errorEnvelope(this.tool, this.toolName, error, {
        runId: this.runId,
        requestId: this.requestId,
        durationMs: this.elapsed(),
      }),
    );
  }
}

function errorEnvelope(
  tool: AnyTool | undefined,
  toolName: string,
  error: LiftError,
  base: { runId: string; requestId: string | undefined; durationMs?: number },
): ErrorEnvelope {
  const spec = tool?.errors?.[error.code];
  const settle = error.settle ?? (error.outcome === 'unknown' ? tool?.timeout.settle : undefined);
  return {
    ok: false,
    tool: toolName,
    error: {
      code: error.code,
      message: error.message,
      retry: spec?.retry ?? ERROR_CODES[error.code].retry,
      hint: error.hint ?? spec?.hint ?? ERROR_CODES[error.code].hint,
      ...(error.outcome ? { outcome: error.outcome } : {}),
      ...(settle ? { settle } : {}),
      ...(error.details ? { details: error.details } : {}),
    },
    run_id: base.runId,
    ...(base.requestId ? { request_id: base.requestId } : {}),
    ...(base.durationMs !== undefined ? { duration_ms: base.durationMs } : {}),
  };
}

function asLiftError(error: unknown, started: boolean): LiftError {
  if (isLiftError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new LiftError('INTERNAL_ERROR', message, {
    outcome: started ? 'unknown' : 'not_started',
    cause: error,
  });
}

/**
 * Invokes a tool under its contract: validation, the idempotency ledger, the gate, the
 * deadline, the implementation, the verifier, the cap, secret scrubbing and the event log.
 */
export async function invoke(
  runtime: Runtime,
  toolOrName: AnyTool | string,
  rawInput: unknown,
  options: InvokeOptions = {},
): Promise<Envelope> {
  const tool = typeof toolOrName === 'string' ? runtime.registry.get(toolOrName) : toolOrName;
  const toolName = typeof toolOrName === 'string' ? toolOrName : toolOrName.name;
  const { runs, ledger, approvals, secrets } = runtime.store;
  const ownRun = options.runId === undefined;
  const runId = options.runId ?? runs.newId();
  const call = new Call(runtime, tool, toolName, runId, ownRun, options.onEvent);
  let requestId = requestIdOf(rawInput, options);
  call.requestId = requestId;
  let claimed = false;

  call.event('start', requestId ? { tool: toolName, request_id: requestId } : { tool: toolName });
  if (!tool) {
    const names = runtime.registry.list().map((known) => known.name);
    return call.fail(
      new LiftError('UNKNOWN_TOOL', `No tool is named '${toolName}'.`, {
        hint: `Available tools: ${names.join(', ') || '(none)'}.`,
        outcome: 'not_started',
      }),
    );
  }

  let input: unknown;
  try {
    input = validateInput(tool, withRequestId(tool, rawInput, options.requestId));
    refuseEscapingPaths(runtime.paths, tool, input);
  } catch (error) {
    return call.fail(asLiftError(error, false));
  }
  requestId = requestIdOf(input, options);
  call.requestId = requestId;
  call.event('validated');

  const usesLedger = tool.effect.class !== 'read' && requestId !== undefined;
  if (usesLedger && requestId) {
    const claim = ledger.claim(tool.name, requestId, hashValue(input));
    if (claim.kind === 'done') {
      const first = JSON.parse(claim.envelope) as SuccessEnvelope;
      call.event('ledger', { result: 'existing' });
      return call.finish({
        ...first,
        effect: 'existing',
        run_id: runId,
        summary: `Already done: ${first.summary}`,
      });
    }
    if (claim.kind === 'reused') {
      return call.fail(
        new LiftError(
          'REQUEST_ID_REUSED',
          `request_id '${requestId}' was already used with different input.`,
          {
            outcome: 'not_started',
          },
        ),
      );
    }
    if (claim.kind === 'in_flight') {
      return call.fail(
        new LiftError('IN_FLIGHT', `A call with request_id '${requestId}' is still running.`, {
          outcome: 'unknown',
        }),
      );
    }
    if (claim.kind === 'unknown') {
      return call.fail(
        new LiftError(
          'OUTCOME_UNKNOWN',
          `An earlier call with request_id '${requestId}' ended without a known outcome.`,
          {
            outcome: 'unknown',
            ...(tool.timeout.settle ? { settle: tool.timeout.settle } : {}),
          },
        ),
      );
    }
    claimed = true;
    call.event('ledger', { result: 'claimed' });
  }

  const gate = gateOf(tool);
  if (gateHoldsCall(gate) && options.approvalId === undefined) {
    if (claimed && requestId) ledger.forget(tool.name, requestId);
    const earlier = requestId ? approvals.findByRequest(tool.name, requestId) : undefined;
    let approval = earlier?.state === 'pending' ? earlier : undefined;
    if (!approval) {
      let preview: ReadPreview;
      try {
        preview = await previewOf(runtime, tool, input, {
          runId,
          requestId,
          signal: options.signal,
          log: call,
        });
      } catch (error) {
        return call.fail(asLiftError(error, false));
      }
      approval = approvals.hold({
        tool: tool.name,
        input,
        requestId,
        gate: gate as 'review' | 'signature',
        preview: secrets.scrub(preview.text),
        digest: preview.digest,
        phrase: gate === 'signature' ? `${tool.name} ${approvalsPhraseSuffix(runId)}` : undefined,
      });
    }
    call.event('gate', { gate, held: true, approval_id: approval.id });
    const pending: PendingEnvelope = {
      ok: true,
      tool: tool.name,
      pending: {
        approval_id: approval.id,
        gate: approval.gate,
        preview: approval.preview,
        ...(approval.phrase ? { confirmation_phrase: approval.phrase } : {}),
      },
      summary: `Held for ${approval.gate}: ${approval.preview}`,
      run_id: runId,
      ...(requestId ? { request_id: requestId } : {}),
    };
    return call.finish(pending);
  }
  const approval = options.approvalId ? approvals.get(options.approvalId) : undefined;
  call.event('gate', {
    gate,
    held: false,
    ...(approval ? { approval_id: approval.id, approved_by: approval.decidedBy } : {}),
  });

  const deadline = Date.now() + tool.timeout.deadlineMs;
  const stop = new Stop();
  stop.arm(deadline, tool, options.signal);
  const context = new CallContext(runtime, {
    tool,
    stop,
    deadline,
    runId,
    requestId,
    approval: approval && {
      id: approval.id,
      gate: approval.gate,
      by: approval.decidedBy ?? 'person',
      preview: approval.preview,
      digest: approval.digest,
    },
    log: call,
  });

  let result: ToolResult<Record<string, unknown>>;
  let checks: Check[];
  try {
    result = await stop.race(tool.run(input, context));
    checks = result.checks ? [...result.checks] : [];
    if (tool.verify) checks.push(...(await stop.race(tool.verify(result, input, context))));
  } catch (error) {
    let liftError = asLiftError(error, call.started);
    if ((liftError.code === 'TIMEOUT' || liftError.code === 'CANCELLED') && liftError.outcome === undefined) {
      const outcome: Outcome = call.started ? 'unknown' : 'not_started';
      liftError = new LiftError(liftError.code, liftError.message, {
        outcome,
        ...(liftError.hint ? { hint: liftError.hint } : {}),
        ...(outcome === 'unknown' && tool.timeout.settle ? { settle: tool.timeout.settle } : {}),
      });
    }
    if (usesLedger && requestId) {
      if (liftError.outcome === 'unknown') ledger.markUnknown(tool.name, requestId);
      else ledger.forget(tool.name, requestId);
    }
    return call.fail(liftError);
  } finally {
    stop.disarm();
  }
  for (const check of checks) call.event('check', { name: check.name, passed: check.passed });

  const parsedOutput = tool.output.safeParse(result.fields);
  if (!parsedOutput.success) {
    if (usesLedger && requestId) ledger.markUnknown(tool.name, requestId);
    return call.fail(
      new LiftError('SURFACE_CHANGED', `${tool.name} read back fields that do not match its output schema.`, {
        outcome: call.started ? 'unknown' : 'not_started',
        details: {
          issues: parsedOutput.error.issues.map(
            (issue: { path: PropertyKey[]; message: string }) =>
              `${issue.path.map(String).join('.')}: ${issue.message}`,
          ),
        },
      }),
    );
  }

  const capped = capFields(parsedOutput.data as Record<string, unknown>, {
    chars: tool.cap?.chars,
    rows: tool.cap?.rows,
    overflowDir: runtime.overflowDir,
    runId,
    secrets,
  });
  const truncated = capped.truncated || result.truncated === true;
  const files = { ...(result.files ?? {}), ...(capped.overflowFile ? { full: capped.overflowFile } : {}) };
  const envelope: SuccessEnvelope = {
    ok: checks.every((check) => check.passed),
    tool: tool.name,
    summary: result.summary,
    fields: capped.fields,
    files,
    effect: result.effect ?? (tool.effect.class === 'read' ? 'none' : 'changed'),
    ...(result.verifiedBy ? { verified_by: result.verifiedBy } : {}),
    checks,
    ...(truncated
      ? {
          truncated: true,
          narrow: result.narrow ?? tool.cap?.narrow ?? 'Narrow the call; the full result is in files.full.',
        }
      : {}),
    ...(result.asOf ? { as_of: result.asOf } : {}),
    run_id: runId,
    ...(requestId ? { request_id: requestId } : {}),
    duration_ms: call.elapsed(),
  };
  const clean = call.finish(envelope);
  if (usesLedger && requestId) ledger.finish(tool.name, requestId, JSON.stringify(clean));
  return clean;
}

/** A request id given beside the input (lift call --request-id) fills the tool's own request_id field. */
function withRequestId(tool: AnyTool, input: unknown, requestId: string | undefined): unknown {
  if (!requestId || !input || typeof input !== 'object' || Array.isArray(input) || 'request_id' in input)
    return input;
  return inputSchemaOf(tool).properties?.request_id ? { ...input, request_id: requestId } : input;
}

function approvalsPhraseSuffix(runId: string): string {
  return runId.slice(-6);
}
