import type { AnyTool, ToolResult } from '../contract/define-tool.js';
import { withEffectListener } from '../contract/effect-scope.js';
import type { Check, Envelope, SuccessEnvelope } from '../contract/envelope.js';
import { LiftError } from '../contract/errors.js';
import { inputSchemaOf } from '../contract/json-schema.js';
import { REQUEST_ID_PATTERN } from '../contract/request-id.js';
import { type Awaitable, andThen, isPromise } from '../store/awaitable.js';
import { validateInput } from './bad-input.js';
import { asLiftError, Call, type InvokeOptions } from './call.js';
import { CallContext } from './call-context.js';
import { capFields } from './cap.js';
import { holdAtGate } from './gate.js';
import { claimLedger } from './ledger-claim.js';
import { refuseEscapingPaths } from './roots.js';
import type { Runtime } from './runtime.js';

export type { InvokeOptions } from './call.js';

type Result = ToolResult<Record<string, unknown>>;

/**
 * Invokes a tool under its contract, one stage after another: validate the input, claim
 * the request id in the idempotency ledger, stop at the gate, arm the deadline, run the
 * implementation, check what it read back, and finish (cap, scrub, record). A stage that
 * answers ends the call with its envelope; the others pass the call on.
 */
export function invoke(
  runtime: Runtime,
  toolOrName: AnyTool | string,
  rawInput: unknown,
  options: InvokeOptions = {},
): Promise<Envelope> {
  try {
    const call = new Call(runtime, toolOrName, rawInput, options);
    call.event(
      'call-start',
      call.requestId ? { tool: call.toolName, request_id: call.requestId } : { tool: call.toolName },
    );
    const tool = call.tool;
    if (!tool) return Promise.resolve(call.fail(unknownTool(runtime, call.toolName)));
    // Not an async function itself: on the embedded store, whose answers are synchronous, a
    // call that runs makes one promise, execute's; the shared store's answers are awaited.
    const invalid = validate(call, tool);
    if (invalid) return Promise.resolve(invalid);
    const answered = andThen(claimLedger(call, tool), (claimed) => claimed ?? holdAtGate(call, tool));
    if (isPromise(answered)) return answered.then((held) => held ?? execute(call, tool));
    return answered === undefined ? execute(call, tool) : Promise.resolve(answered);
  } catch (error) {
    return Promise.reject(error);
  }
}

function unknownTool(runtime: Runtime, name: string): LiftError {
  const names = runtime.registry.list().map((known) => known.name);
  return new LiftError('UNKNOWN_TOOL', `No tool is named '${name}'.`, {
    hint: `Available tools: ${names.join(', ') || '(none)'}.`,
    outcome: 'not_started',
  });
}

/**
 * Validate: the input against the tool's schema, and the paths it names against their roots,
 * before anything touches the system (nobody is asked to approve a path outside its roots).
 */
function validate(call: Call, tool: AnyTool): Envelope | undefined {
  const given = call.options.requestId;
  if (given !== undefined && !REQUEST_ID_PATTERN.test(given)) return call.fail(badRequestId(tool, given));
  try {
    call.input = validateInput(tool, withRequestId(tool, call.input, call.options.requestId));
    refuseEscapingPaths(call.runtime.paths, tool, call.input, call.options.roots);
  } catch (error) {
    return call.fail(asLiftError(error, false));
  }
  call.takeRequestId(call.input);
  call.event('input-validated');
  return undefined;
}

function badRequestId(tool: AnyTool, requestId: string): LiftError {
  return new LiftError('BAD_INPUT', `Invalid request id for ${tool.name}: '${requestId}'.`, {
    hint: 'A request id is 4 to 100 letters, digits, . _ : or -, starting with a letter or digit. Nothing was sent to the system.',
    outcome: 'not_started',
    details: { fields: ['request_id'] },
  });
}

/** A request id given beside the input (lift call --request-id) fills the tool's own request_id field. */
function withRequestId(tool: AnyTool, input: unknown, requestId: string | undefined): unknown {
  if (!requestId || !input || typeof input !== 'object' || Array.isArray(input) || 'request_id' in input)
    return input;
  return inputSchemaOf(tool).properties?.request_id ? { ...input, request_id: requestId } : input;
}

/** Deadline, run and check: the implementation under its deadline, then its read-back. */
async function execute(call: Call, tool: AnyTool): Promise<Envelope> {
  call.deadline = Date.now() + tool.timeout.deadlineMs;
  call.stop.arm(call.deadline, tool, call.options.signal);
  const context = new CallContext(call.runtime, call);
  let result: Result;
  let checks: Check[];
  try {
    const run = () => (call.settling ? settleThenRun(call, tool, context) : tool.run(call.input, context));
    // A program a write tool starts may reach the system: the call is started unless it says otherwise.
    result = await call.stop.race(
      tool.effect.class === 'read' ? run() : withEffectListener(() => call.markStarted(), run),
    );
    checks = result.checks ? [...result.checks] : [];
  } catch (error) {
    return failed(call, tool, error);
  } finally {
    call.stop.disarm();
  }
  for (const check of checks)
    call.event(check.passed ? 'check-passed' : 'check-failed', { name: check.name, passed: check.passed });
  const output = tool.output.safeParse(result.fields);
  if (!output.success) return surfaceChanged(call, tool, output.error.issues);
  return finish(call, tool, result, output.data as Record<string, unknown>, checks);
}

/**
 * Settle read: the write that an earlier, cut-off run landed, or else a run now. Until the
 * read has answered, that run may have landed, so any failure leaves the outcome unknown.
 */
async function settleThenRun(call: Call, tool: AnyTool, context: CallContext): Promise<Result> {
  call.started = true;
  let landed: Result | undefined;
  try {
    landed = await (tool.settleRead as NonNullable<AnyTool['settleRead']>)(call.input, context);
  } catch (error) {
    const cause = asLiftError(error, true);
    throw new LiftError(cause.code, cause.message, {
      outcome: 'unknown',
      ...(cause.hint ? { hint: cause.hint } : {}),
      ...(tool.timeout.settle ? { settle: tool.timeout.settle } : {}),
      cause,
    });
  }
  call.event('settle-read-end', { landed: landed !== undefined });
  if (landed) return { ...landed, effect: 'existing' };
  // A read that answered after the deadline must not start the write.
  if (context.signal.aborted) throw context.signal.reason;
  call.started = false;
  return tool.run(call.input, context);
}

/** A run or verify that threw: the error with its outcome, and the ledger told what is known. */
async function failed(call: Call, tool: AnyTool, error: unknown): Promise<Envelope> {
  let liftError = asLiftError(error, call.started);
  if ((liftError.code === 'TIMEOUT' || liftError.code === 'CANCELLED') && liftError.outcome === undefined) {
    const outcome = call.started ? 'unknown' : 'not_started';
    liftError = new LiftError(liftError.code, liftError.message, {
      outcome,
      ...(liftError.hint ? { hint: liftError.hint } : {}),
      ...(outcome === 'unknown' && tool.timeout.settle ? { settle: tool.timeout.settle } : {}),
    });
  }
  await call.releaseClaim(liftError.outcome);
  return call.fail(liftError);
}

/** Check: fields read back that do not match the output schema mean the surface has changed. */
async function surfaceChanged(
  call: Call,
  tool: AnyTool,
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
): Promise<Envelope> {
  await call.releaseClaim('unknown');
  return call.fail(
    new LiftError('SURFACE_CHANGED', `${tool.name} read back fields that do not match its output schema.`, {
      outcome: call.started ? 'unknown' : 'not_started',
      details: { issues: issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`) },
    }),
  );
}

/** Finish: cap the fields, build the envelope, scrub and record it, and settle the ledger. */
function finish(
  call: Call,
  tool: AnyTool,
  result: Result,
  fields: Record<string, unknown>,
  checks: Check[],
): Awaitable<SuccessEnvelope> {
  const capped = capFields(fields, {
    chars: tool.cap?.chars,
    rows: tool.cap?.rows,
    overflowDir: call.runtime.overflowDir,
    runId: call.runId,
    secrets: call.runtime.store.secrets,
  });
  const truncated = capped.truncated || result.truncated === true;
  const envelope: SuccessEnvelope = {
    ok: checks.every((check) => check.passed),
    tool: tool.name,
    summary: result.summary,
    fields: capped.fields,
    files: { ...(result.files ?? {}), ...(capped.overflowFile ? { full: capped.overflowFile } : {}) },
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
    run_id: call.runId,
    ...(call.requestId ? { request_id: call.requestId } : {}),
    duration_ms: call.elapsed(),
  };
  const clean = call.finish(envelope);
  if (!call.claimed || !call.requestId) return clean;
  return andThen(
    call.runtime.store.ledger.finish(tool.name, call.requestId, JSON.stringify(clean)),
    () => clean,
  );
}
