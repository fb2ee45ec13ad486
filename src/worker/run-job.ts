import type { Envelope } from '../contract/envelope.js';
import { isPending } from '../contract/envelope.js';
import { isLiftError } from '../contract/errors.js';
import type { JobData, JobOutput } from '../queue/job.js';
import { approveHeld } from '../runtime/approve.js';
import type { Runtime } from '../runtime/runtime.js';

/** What became of one job: done (its output is kept), or back to the queue to try later. */
export type JobEnd = { kind: 'done'; output: JobOutput; held?: string } | { kind: 'later'; reason: string };

function inFlightElsewhere(envelope: Envelope): boolean {
  return 'error' in envelope && envelope.error.code === 'IN_FLIGHT';
}

/**
 * Runs one job through the runtime, under the contract like any call: the tool's deadline,
 * the ledger, the gate. A job taken before (its worker killed or lost) claims with a settle
 * first: the earlier run may have landed, so the tool's settle read decides between the
 * landed result (effect existing) and one run now. A call another live worker still holds
 * goes back to the queue.
 */
export async function runJob(
  runtime: Runtime,
  data: JobData,
  retried: boolean,
  signal: AbortSignal,
): Promise<JobEnd> {
  if (data.kind === 'approve') return runApproval(runtime, data);
  const envelope = await runtime.invoke(data.tool, data.input, {
    requestId: data.request_id,
    signal,
    ...(retried ? { settleFirst: true } : {}),
  });
  if (inFlightElsewhere(envelope)) return { kind: 'later', reason: 'in flight on another worker' };
  return {
    kind: 'done',
    output: { envelope },
    ...(isPending(envelope) ? { held: envelope.pending.approval_id } : {}),
  };
}

/** A person's yes, run here once: the approval is taken by exactly one owner (runtime/approve.ts). */
async function runApproval(runtime: Runtime, data: Extract<JobData, { kind: 'approve' }>): Promise<JobEnd> {
  try {
    // approveHeld, not runtime.approve: the runtime would release the approval to the queue
    // again, and this job would wait on itself.
    const envelope = await approveHeld(runtime, data.approval_id, {
      by: data.by,
      ...(data.phrase !== undefined ? { phrase: data.phrase } : {}),
    });
    if (inFlightElsewhere(envelope)) return { kind: 'later', reason: 'the approved call runs elsewhere' };
    return { kind: 'done', output: { envelope } };
  } catch (error) {
    if (!isLiftError(error)) throw error;
    if (error.code === 'IN_FLIGHT') return { kind: 'later', reason: error.message };
    return {
      kind: 'done',
      output: { refused: { code: error.code, message: error.message, hint: error.hint } },
    };
  }
}
