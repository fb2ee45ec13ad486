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

/** Errors that say the system was busy: with nothing started, a later try may well succeed. */
const BUSY_CODES: ReadonlySet<string> = new Set(['TIMEOUT', 'LOCKED', 'RATE_LIMITED']);
/**
 * Tries of a job (hand-backs and lost workers included) within which a busy refusal goes back
 * to the queue instead of becoming the job's answer: a journal whose lock other hosts held for
 * most of the deadline, a rate limit. Past them, the refusal is the answer.
 */
export const BUSY_TRIES = 5;

/** The call did nothing because the system was busy (its outcome says not_started), so a retry cannot do anything twice. */
function busyAndNotStarted(envelope: Envelope): boolean {
  return (
    'error' in envelope && envelope.error.outcome === 'not_started' && BUSY_CODES.has(envelope.error.code)
  );
}

/**
 * Runs one job through the runtime, under the contract like any call: the tool's deadline,
 * the ledger, the gate. A job taken before (its worker killed or lost) claims with a settle
 * first: the earlier run may have landed, so the tool's settle read decides between the
 * landed result (effect existing) and one run now. A call another live worker still holds
 * goes back to the queue, and so does, for a few tries, a call the system was too busy to start.
 */
export async function runJob(
  runtime: Runtime,
  data: JobData,
  retryCount: number,
  signal: AbortSignal,
): Promise<JobEnd> {
  if (data.kind === 'approve') return runApproval(runtime, data);
  const envelope = await runtime.invoke(data.tool, data.input, {
    requestId: data.request_id,
    signal,
    ...(retryCount > 0 ? { settleFirst: true } : {}),
    ...(data.roots ? { roots: data.roots } : {}),
  });
  if (inFlightElsewhere(envelope)) return { kind: 'later', reason: 'in flight on another worker' };
  if (busyAndNotStarted(envelope) && retryCount + 1 < BUSY_TRIES) {
    return {
      kind: 'later',
      reason: `busy, nothing started: ${'error' in envelope ? envelope.error.message : ''}`,
    };
  }
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
