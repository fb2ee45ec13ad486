import { type Envelope, isError, isPending } from '../contract/envelope.js';

/**
 * An envelope as the model reads it: compact JSON of what matters for the next decision (outcome,
 * summary, fields, files, checks, or the error with its hint). Run ids and timings stay in the run log.
 */
export function envelopeText(envelope: Envelope): string {
  if (isPending(envelope)) {
    return JSON.stringify({
      ok: false,
      tool: envelope.tool,
      error: { code: envelope.error.code, message: envelope.error.message },
      pending: { gate: envelope.pending.gate, preview: envelope.pending.preview },
      summary: 'Held for a person to approve; it has not run.',
    });
  }
  if (isError(envelope)) {
    const { code, message, hint, retry, outcome, settle, details } = envelope.error;
    return JSON.stringify({
      ok: false,
      tool: envelope.tool,
      error: {
        code,
        message,
        hint,
        retry,
        ...(outcome ? { outcome } : {}),
        ...(settle ? { settle } : {}),
        ...(details ? { details } : {}),
      },
    });
  }
  return JSON.stringify({
    ok: envelope.ok,
    tool: envelope.tool,
    summary: envelope.summary,
    fields: envelope.fields,
    ...(Object.keys(envelope.files).length > 0 ? { files: envelope.files } : {}),
    effect: envelope.effect,
    ...(envelope.checks.length > 0
      ? {
          checks: envelope.checks.map((check) => [
            check.name,
            check.passed,
            ...(check.detail ? [check.detail] : []),
          ]),
        }
      : {}),
    ...(envelope.truncated ? { truncated: true, narrow: envelope.narrow } : {}),
  });
}

/** Checks passed and in all, for traces and the ledger. */
export function checkCounts(envelope: Envelope): { passed: number; total: number } {
  if (isError(envelope) || isPending(envelope)) return { passed: 0, total: 0 };
  return { passed: envelope.checks.filter((check) => check.passed).length, total: envelope.checks.length };
}
