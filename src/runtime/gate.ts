import { type AnyTool, gateOf } from '../contract/define-tool.js';
import { gateHoldsCall } from '../contract/effects.js';
import type { PendingEnvelope } from '../contract/envelope.js';
import type { Approval } from '../store/approvals.js';
import type { Call } from './call.js';

/**
 * Gate: a review or signature gate holds the call for a person (unless this is the approved
 * call itself). A held call keeps no claim on the ledger; a repeat of it gets the same
 * approval back instead of a second one.
 */
export function holdAtGate(call: Call, tool: AnyTool): PendingEnvelope | undefined {
  const gate = gateOf(tool);
  const approvalId = call.options.approvalId;
  if (!gateHoldsCall(gate) || approvalId !== undefined) {
    call.event('gate-passed', { gate, ...(approvalId ? { approval_id: approvalId } : {}) });
    return undefined;
  }
  call.releaseClaim('not_started');
  const approval = openApproval(call, tool, gate as Approval['gate']);
  call.event('gate-held', { gate, approval_id: approval.id });
  return call.finish({
    ok: true,
    tool: tool.name,
    pending: {
      approval_id: approval.id,
      gate: approval.gate,
      preview: approval.preview,
      ...(approval.phrase ? { confirmation_phrase: approval.phrase } : {}),
    },
    summary: `Held for ${approval.gate}: ${approval.preview}`,
    run_id: call.runId,
    ...(call.requestId ? { request_id: call.requestId } : {}),
  });
}

/** The pending approval of an earlier identical call, or a new one. */
function openApproval(call: Call, tool: AnyTool, gate: Approval['gate']): Approval {
  const { approvals, secrets } = call.runtime.store;
  const earlier = call.requestId ? approvals.findByRequest(tool.name, call.requestId) : undefined;
  if (earlier?.state === 'pending') return earlier;
  return approvals.hold({
    tool: tool.name,
    input: call.input,
    requestId: call.requestId,
    gate,
    preview: secrets.scrub(
      tool.preview ? tool.preview(call.input) : `${tool.name} ${JSON.stringify(call.input)}`,
    ),
    // The last characters of the run id make each phrase differ from the one before.
    phrase: gate === 'signature' ? `${tool.name} ${call.runId.slice(-6)}` : undefined,
  });
}
