import { LiftError } from '../contract/errors.js';
import type { ApprovedCallRelease } from '../runtime/runtime.js';
import type { ApprovalRecords } from '../store/records.js';
import { approvalRequestId } from './job.js';
import type { JobQueue } from './queue.js';
import { WorkerRegistry } from './workers.js';

/**
 * Approvals given anywhere (the console, `lift approve`, an MCP client) release a queued
 * call to the workers: the yes becomes a job named by the approval, so however many people
 * or processes say yes, one job runs it, on a worker, once (the worker's approve takes the
 * approval exactly once and settles a call its predecessor was killed in). Calls that were
 * not queued run where they are approved, as before.
 */
export function releaseToQueue(queue: JobQueue, approvals: ApprovalRecords): ApprovedCallRelease {
  const registry = new WorkerRegistry(queue);
  let prepared: Promise<void> | undefined;
  return async (approvalId, options) => {
    prepared ??= registry.prepare();
    await prepared;
    if (!(await registry.heldByJob(approvalId))) return undefined;
    // A wrong phrase is refused here: the job named by the approval is for the yes that counts.
    const approval = await approvals.get(approvalId);
    if (
      approval?.gate === 'signature' &&
      approval.state === 'pending' &&
      options.phrase !== approval.phrase
    ) {
      throw new LiftError('CONFIRMATION_MISMATCH', 'The confirmation phrase does not match.', {
        hint: `Type the phrase exactly as shown in the preview: ${approval.phrase}`,
      });
    }
    const requestId = approvalRequestId(approvalId);
    await queue.enqueue({
      kind: 'approve',
      request_id: requestId,
      approval_id: approvalId,
      by: options.by ?? 'person',
      ...(options.phrase !== undefined ? { phrase: options.phrase } : {}),
    });
    const output = await queue.result(requestId);
    if ('envelope' in output) return output.envelope;
    throw new LiftError(output.refused.code as never, output.refused.message, {
      ...(output.refused.hint ? { hint: output.refused.hint } : {}),
    });
  };
}
