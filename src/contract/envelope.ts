import { z } from 'zod';
import { EFFECTS } from './effects.js';

export const CheckSchema = z.object({
  name: z.string(),
  passed: z.boolean(),
  detail: z.string().optional(),
});
export type Check = z.infer<typeof CheckSchema>;

export const ErrorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  retry: z.enum(['yes', 'no', 'after_check']),
  hint: z.string(),
  outcome: z.enum(['not_started', 'unknown']).optional(),
  settle: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const SuccessEnvelopeSchema = z.object({
  ok: z.boolean(),
  tool: z.string(),
  summary: z.string(),
  fields: z.record(z.string(), z.unknown()),
  files: z.record(z.string(), z.string()),
  effect: z.enum(EFFECTS),
  verified_by: z.string().optional(),
  checks: z.array(CheckSchema),
  truncated: z.boolean().optional(),
  narrow: z.string().optional(),
  as_of: z.string().optional(),
  run_id: z.string(),
  request_id: z.string().optional(),
  duration_ms: z.number(),
});
export type SuccessEnvelope = z.infer<typeof SuccessEnvelopeSchema>;

/**
 * A call held for a person's yes. It did not run, so it is not ok: an error envelope whose
 * code is APPROVAL_PENDING (an agent that only reads `ok` and `error` does not take it for
 * done), with `pending` saying what waits and how to answer it.
 */
export const PendingEnvelopeSchema = z.object({
  ok: z.literal(false),
  tool: z.string(),
  error: ErrorBodySchema.extend({ code: z.literal('APPROVAL_PENDING') }),
  pending: z.object({
    approval_id: z.string(),
    gate: z.enum(['review', 'signature']),
    preview: z.string(),
    /** A short digest of the canonical input (secrets masked): what a signature binds. */
    input_digest: z.string().optional(),
    confirmation_phrase: z.string().optional(),
  }),
  summary: z.string(),
  run_id: z.string(),
  request_id: z.string().optional(),
});
export type PendingEnvelope = z.infer<typeof PendingEnvelopeSchema>;

export const ErrorEnvelopeSchema = z.object({
  ok: z.literal(false),
  tool: z.string(),
  error: ErrorBodySchema,
  run_id: z.string(),
  request_id: z.string().optional(),
  duration_ms: z.number().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

export type Envelope = SuccessEnvelope | PendingEnvelope | ErrorEnvelope;

export function isPending(envelope: Envelope): envelope is PendingEnvelope {
  return 'pending' in envelope;
}
/** True for every envelope that is not ok by an error, a held call included: ask isPending first where a held call reads differently. */
export function isError(envelope: Envelope): envelope is ErrorEnvelope | PendingEnvelope {
  return 'error' in envelope;
}
export function isSuccess(envelope: Envelope): envelope is SuccessEnvelope {
  return !isPending(envelope) && !isError(envelope);
}

/** A one-line reading of an envelope for traces and MCP text content. */
export function describeEnvelope(envelope: Envelope): string {
  if (isPending(envelope))
    return `held for ${envelope.pending.gate} (approval ${envelope.pending.approval_id}), not run`;
  if (isError(envelope)) return `${envelope.error.code}: ${envelope.error.message}`;
  const passed = envelope.checks.filter((check) => check.passed).length;
  const checks = envelope.checks.length > 0 ? `, ${passed}/${envelope.checks.length} checks` : '';
  return `${envelope.ok ? 'ok' : 'failed'}${checks}: ${envelope.summary}`;
}
