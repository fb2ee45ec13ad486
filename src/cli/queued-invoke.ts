import { randomBytes } from 'node:crypto';
import type { AnyTool } from '../contract/define-tool.js';
import { type Envelope, isPending } from '../contract/envelope.js';
import type { JobData } from '../queue/job.js';
import { tooDeepAt } from '../runtime/bad-input.js';
import { type InvokeOptions, requestIdOf } from '../runtime/call.js';
import type { Runtime } from '../runtime/runtime.js';
import { jobQueue } from './open-runtime.js';

/** How a command runs one call: `runtime.invoke`, or the queue's workers with --queue. */
export type CallRunner = (
  tool: AnyTool | string,
  input: unknown,
  options: InvokeOptions,
) => Promise<Envelope>;

/**
 * Runs calls on the shared queue's workers (lift call --queue, lift serve --queue): the job is
 * named by the call's request id (the option or the input's own, as the ledger names it; a
 * call without one gets a fresh id), so a call sent twice is one job. Aborting stops the
 * wait, not the job. The call's events are the worker's: a caller hears none of them.
 */
export function queuedInvoke(runtime: Runtime): CallRunner {
  return async (tool, input, options) => {
    // Too deep to be sent as a job (JSON.stringify overflows): refused here, by validation,
    // which answers BAD_INPUT before anything runs.
    if (tooDeepAt(input)) return runtime.invoke(tool, input, options);
    const queue = await jobQueue(runtime);
    const job: Extract<JobData, { kind: 'call' }> = {
      kind: 'call',
      request_id: requestIdOf(input, options) ?? `q-${randomBytes(8).toString('hex')}`,
      tool: typeof tool === 'string' ? tool : tool.name,
      input,
      ...(options.roots ? { roots: options.roots } : {}),
    };
    const waiting = options.signal ? { signal: options.signal } : {};
    const envelope = await queue.call(job, waiting);
    const ran = await approvalThatRan(runtime, envelope);
    // The request id's job keeps the answer it had, held; the approved call has run since, so
    // a job of its own asks the ledger, which answers as it does on the embedded store.
    return ran ? queue.call({ ...job, after: ran }, waiting) : envelope;
  };
}

/** The approval a held answer names, once the approved call has run. */
async function approvalThatRan(runtime: Runtime, envelope: Envelope): Promise<string | undefined> {
  if (!isPending(envelope)) return undefined;
  const approval = await runtime.store.approvals.get(envelope.pending.approval_id);
  return approval?.state === 'executed' ? approval.id : undefined;
}
