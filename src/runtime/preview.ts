import type { AnyTool } from '../contract/define-tool.js';
import { isLiftError, LiftError } from '../contract/errors.js';
import { CallContext, type CallLog, Stop } from './call-context.js';
import type { Runtime } from './runtime.js';

export interface ReadPreview {
  text: string;
  digest: string | undefined;
}

/**
 * The preview a person approves: the tool's own, which may read the system (under the tool's
 * deadline and the caller's cancellation), or the call itself. A failure of the read is the
 * call's failure, and nothing was done: its outcome is `not_started`.
 */
export async function previewOf(
  runtime: Runtime,
  tool: AnyTool,
  input: unknown,
  parts: {
    runId: string;
    requestId: string | undefined;
    signal: AbortSignal | undefined;
    log: CallLog;
    roots: readonly string[] | undefined;
  },
): Promise<ReadPreview> {
  if (!tool.preview) return { text: `${tool.name} ${JSON.stringify(input)}`, digest: undefined };
  const deadline = Date.now() + tool.timeout.deadlineMs;
  const stop = new Stop();
  stop.arm(deadline, tool, parts.signal);
  const { log } = parts;
  const context = new CallContext(runtime, {
    toolName: tool.name,
    stop,
    deadline,
    runId: parts.runId,
    requestId: parts.requestId,
    approval: undefined,
    event: (type, data) => log.event(type, data),
    markStarted: () => log.markStarted(),
    onEvent: log.onEvent,
    roots: parts.roots,
  });
  try {
    const preview = await stop.race(tool.preview(input, context));
    return typeof preview === 'string'
      ? { text: preview, digest: undefined }
      : { text: preview.text, digest: preview.digest };
  } catch (error) {
    throw notStarted(error);
  } finally {
    stop.disarm();
  }
}

function notStarted(error: unknown): LiftError {
  if (isLiftError(error)) {
    if (error.outcome) return error;
    return new LiftError(error.code, error.message, {
      outcome: 'not_started',
      ...(error.hint ? { hint: error.hint } : {}),
      ...(error.details ? { details: error.details } : {}),
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LiftError('INTERNAL_ERROR', message, { outcome: 'not_started', cause: error });
}
