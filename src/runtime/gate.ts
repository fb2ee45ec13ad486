import { type AnyTool, gateOf } from '../contract/define-tool.js';
import { type Gate, gateHoldsCall } from '../contract/effects.js';
import type { Envelope, PendingEnvelope } from '../contract/envelope.js';
import { ERROR_CODES, LiftError } from '../contract/errors.js';
import type { Approval } from '../store/approvals.js';
import { type Awaitable, andThen } from '../store/awaitable.js';
import { maskInput } from '../store/held-input.js';
import { inputDigest, signaturePhrase } from '../store/signature-phrase.js';
import { asLiftError, type Call } from './call.js';
import { previewOf } from './preview.js';

/**
 * Gate: a review or signature gate holds the call for a person, unless this is the approved
 * call itself, which passes with the approval it carries. A held call keeps no claim on the
 * ledger; a repeat of it gets the same approval back instead of a second one.
 */
export function holdAtGate(call: Call, tool: AnyTool): Awaitable<Envelope | undefined> {
  const gate = gateOf(tool);
  const approvalId = call.options.approvalId;
  if (!gateHoldsCall(gate) || approvalId !== undefined) {
    if (!approvalId) return pass(call, gate, undefined);
    return andThen(call.runtime.store.approvals.get(approvalId), (approval) => pass(call, gate, approval));
  }
  return andThen(call.releaseClaim('not_started'), () => hold(call, tool, gate));
}

/** The call goes on: ungated, or the approved call itself with the approval it carries. */
function pass(call: Call, gate: Gate, approval: Approval | undefined): undefined {
  if (approval) {
    call.approval = {
      id: approval.id,
      gate: approval.gate,
      by: approval.decidedBy ?? 'person',
      preview: approval.preview,
      digest: approval.digest,
    };
  }
  call.event(
    'gate-passed',
    approval ? { gate, approval_id: approval.id, approved_by: approval.decidedBy } : { gate },
  );
  return undefined;
}

async function hold(call: Call, tool: AnyTool, gate: Gate): Promise<Envelope> {
  let approval: Approval;
  try {
    approval = await openApproval(call, tool, gate as Approval['gate']);
  } catch (error) {
    return call.fail(asLiftError(error, false));
  }
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
  return call.finish(pendingEnvelope(call, tool, approval));
}

/**
 * A held call's answer: not ok (it did not run), APPROVAL_PENDING with the approval id and how
 * to wait for the answer, and the preview with the input's digest, as the person sees them.
 */
function pendingEnvelope(call: Call, tool: AnyTool, approval: Approval): PendingEnvelope {
  const id = approval.id;
  return {
    ok: false,
    tool: tool.name,
    error: {
      code: 'APPROVAL_PENDING',
      message: `${tool.name} is held for a person's ${approval.gate} (approval ${id}); it has not run.`,
      retry: ERROR_CODES.APPROVAL_PENDING.retry,
      hint: `Do not call it again. Wait for the answer with lift call --wait (or approval_status {"approval_id":"${id}"}); a person answers in the console (lift console) or with lift approve ${id} (lift deny ${id}).`,
      outcome: 'not_started',
      details: { approval_id: id, gate: approval.gate },
    },
    pending: {
      approval_id: id,
      gate: approval.gate,
      preview: approval.preview,
      input_digest: approval.inputDigest,
      ...(approval.phrase ? { confirmation_phrase: approval.phrase } : {}),
    },
    summary: `Held for ${approval.gate}, not run: ${approval.preview}`,
    run_id: call.runId,
    ...(call.requestId ? { request_id: call.requestId } : {}),
  };
}

/**
 * The pending approval of an earlier call under the same request id, or a new one with the
 * preview the tool reads from the system. An earlier call with other input is returned as
 * it is, for the caller to refuse.
 */
async function openApproval(call: Call, tool: AnyTool, gate: Approval['gate']): Promise<Approval> {
  const { approvals, secrets } = call.runtime.store;
  const earlier = call.requestId ? await approvals.findByRequest(tool.name, call.requestId) : undefined;
  if (earlier?.state === 'pending') return earlier;
  const preview = await previewOf(call.runtime, tool, call.input, {
    runId: call.runId,
    requestId: call.requestId,
    signal: call.options.signal,
    log: call,
  });
  const input = maskInput(call.input, secrets);
  return approvals.hold({
    tool: tool.name,
    input,
    inputHash: call.inputHash(),
    requestId: call.requestId,
    gate,
    preview: secrets.scrub(preview.text),
    digest: preview.digest,
    phrase: gate === 'signature' ? signaturePhrase(tool.name, inputDigest(input.input)) : undefined,
  });
}
