import type { Envelope, ErrorEnvelope, PendingEnvelope } from '../contract/envelope.js';
import { ERROR_CODES } from '../contract/errors.js';
import { CHANGING } from '../store/approvals.js';
import type { Runtime } from './runtime.js';

export interface AwaitOptions {
  signal?: AbortSignal | undefined;
  /** How often the store is read; answers come from other processes (the console, lift approve). */
  pollMs?: number;
  /** Told when the person changed the input and the wait moved on to the changed call. */
  onReplaced?: (from: string, to: string) => void;
}

function denied(pending: PendingEnvelope, approvalId: string, by: string | undefined): ErrorEnvelope {
  return {
    ok: false,
    tool: pending.tool,
    error: {
      code: 'APPROVAL_DENIED',
      message: `${by ?? 'A person'} denied ${pending.tool} (approval ${approvalId}); it did not run.`,
      retry: ERROR_CODES.APPROVAL_DENIED.retry,
      hint: ERROR_CODES.APPROVAL_DENIED.hint,
      outcome: 'not_started',
    },
    run_id: pending.run_id,
    ...(pending.request_id ? { request_id: pending.request_id } : {}),
  };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Waits for a person to answer a held call, wherever they answer it (the console, `lift approve`,
 * `lift deny`, an MCP client), and returns what became of it: the executed call's envelope, or
 * APPROVAL_DENIED. A call whose input the person changed is followed to the changed call. Aborting
 * returns the pending envelope: the call stays held.
 */
export async function awaitAnswer(
  runtime: Runtime,
  pending: PendingEnvelope,
  options: AwaitOptions = {},
): Promise<Envelope> {
  let approvalId = pending.pending.approval_id;
  let current = pending;
  while (!options.signal?.aborted) {
    const approval = await runtime.store.approvals.get(approvalId);
    if (!approval) return denied(current, approvalId, undefined);
    if (approval.state === 'executed' && approval.envelope) return JSON.parse(approval.envelope) as Envelope;
    if (approval.state === 'denied' && approval.replacedBy === CHANGING) {
      await sleep(options.pollMs ?? 150, options.signal);
      continue;
    }
    if (approval.state === 'denied' && approval.replacedBy) {
      options.onReplaced?.(approvalId, approval.replacedBy);
      approvalId = approval.replacedBy;
      current = { ...current, pending: { ...current.pending, approval_id: approvalId } };
      continue;
    }
    if (approval.state === 'denied') return denied(current, approvalId, approval.decidedBy);
    await sleep(options.pollMs ?? 150, options.signal);
  }
  return current;
}
