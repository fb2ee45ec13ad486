import { randomBytes } from 'node:crypto';
import type { AnyTool } from '../contract/define-tool.js';
import type { Envelope } from '../contract/envelope.js';
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
  return async (tool, input, options) =>
    (await jobQueue(runtime)).call(
      {
        kind: 'call',
        request_id: requestIdOf(input, options) ?? `q-${randomBytes(8).toString('hex')}`,
        tool: typeof tool === 'string' ? tool : tool.name,
        input,
        ...(options.roots ? { roots: options.roots } : {}),
      },
      options.signal ? { signal: options.signal } : {},
    );
}
