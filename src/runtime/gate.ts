import { type AnyTool, gateOf } from '../contract/define-tool.js';
import { gateHoldsCall } from '../contract/effects.js';
import type { Envelope } from '../contract/envelope.js';
import { LiftError } from '../contract/errors.js';
import type { Approval } from '../store/approvals.js';
import { maskInput } from '../store/held-input.js';
import type { Call } from './call.js';

/**
 * Gate: a review or signature gate holds the call for a person (unless this is the approved
 * call itself). A held call keeps no claim on the ledger; a repeat of it gets the same
 * approval back instead of a second one.
 */
export function holdAtGate(call: Call, tool: AnyTool): Envelope | undefined {
  const gate = gateOf(tool);
  const approvalId = call.options.approvalId;
  if (!gateHoldsCall(gate) || approvalId !== undefined) {
    call.event('gate-passed', { gate, ...(approvalId ? { approval_id: approvalId } : {}) });
    return undefined;
  }
  call.releaseClaim('not_started');
  const approval = openApproval(call, tool, gate as Approval['gate']);
  if (approval.inputHash !== call.inputHash()) {
    return call.fail(
      new LiftError(
        'REQUEST_ID_REUSED',
        `request_id '${call.requestId}' is already held for approval (${approval.id}) with different input.`,
        { outcome: 'not_started' },
      ),
    );
  }
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

/**
 * The pending approval of an earlier call under the same request id, or a new one. An
 * earlier call with other input is returned as it is, for the caller to refuse.
 */
function openApproval(call: Call, tool: AnyTool, gate: Approval['gate']): Approval {
  const { approvals, secrets } = call.runtime.store;
  const earlier = call.requestId ? approvals.findByRequest(tool.name, call.requestId) : undefined;
  if (earlier?.state === 'pending') return earlier;
  return approvals.hold({
    tool: tool.name,
    input: maskInput(call.input, secrets),
    inputHash: call.inputHash(),
    requestId: call.requestId,
    gate,
    preview: secrets.scrub(
      tool.preview ? tool.preview(call.input) : `${tool.name} ${JSON.stringify(call.input)}`,
    ),
    // The last characters of the run id make each phrase differ from the one before.
    phrase: gate === 'signature' ? `${tool.name} ${call.runId.slice(-6)}` : undefined,
  });
}
