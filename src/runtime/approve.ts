import type { Envelope } from '../contract/envelope.js';
import { LiftError } from '../contract/errors.js';
import { type Approval, approverIsGone } from '../store/approvals.js';
import { unmaskInput } from '../store/held-input.js';
import { HEARTBEAT_MS, type LeaseOwner, thisProcess } from '../store/processes.js';
import type { Runtime } from './runtime.js';

/** How long a second approver waits for the first to finish, before it answers IN_FLIGHT. */
const WAIT_MS = 60_000;
const POLL_MS = 100;

/**
 * Runs a held call exactly once. The approver that takes the approval owns it, with a lease
 * it renews while the call runs; a second approver (in this process or another) waits for
 * the first one's envelope. When the owner is gone (killed mid-call), the next approver
 * takes over: the tool's settle read says whether the write landed, and the call runs only
 * if it did not.
 */
export async function approveHeld(
  runtime: Runtime,
  approvalId: string,
  options: { by?: string; phrase?: string },
): Promise<Envelope> {
  const { approvals } = runtime.store;
  const approval = await approvals.get(approvalId);
  if (!approval) throw new LiftError('APPROVAL_NOT_FOUND', `No held call has approval id '${approvalId}'.`);
  if (approval.gate === 'signature' && approval.state === 'pending' && options.phrase !== approval.phrase) {
    throw new LiftError('CONFIRMATION_MISMATCH', 'The confirmation phrase does not match.', {
      hint: `Type the phrase exactly as shown in the preview: ${approval.phrase}`,
    });
  }
  // Secrets are read again from the store now: one no longer stored stops the call before it is
  // taken. A call already settled needs none.
  const open = approval.state === 'pending' || approval.state === 'approved';
  const input = open ? unmaskInput(approval, runtime.store.secrets) : undefined;
  const owner = thisProcess();
  if (await approvals.take(approvalId, options.by ?? 'person', owner))
    return execute(runtime, approval, input, owner, false);
  return settled(runtime, approval, input, owner);
}

/** Waits for another approver's envelope, or takes the call over once that approver is gone. */
async function settled(
  runtime: Runtime,
  approval: Approval,
  input: unknown,
  owner: LeaseOwner,
): Promise<Envelope> {
  const { approvals } = runtime.store;
  const approvalId = approval.id;
  let current: Approval | undefined;
  for (const until = Date.now() + WAIT_MS; Date.now() < until; ) {
    current = await approvals.get(approvalId);
    if (current?.state === 'executed' && current.envelope) return JSON.parse(current.envelope) as Envelope;
    // The first approver's run could not reach the program and the call is held again: that
    // attempt is this approver's answer too (its phrase, if any, was never checked: it may not run it).
    if (current?.state === 'pending' && current.envelope) return JSON.parse(current.envelope) as Envelope;
    if (current?.state === 'denied')
      throw new LiftError('APPROVAL_DENIED', `Approval '${approvalId}' was denied.`);
    if (current && approverIsGone(current) && (await approvals.takeOver(approvalId, owner)))
      return execute(runtime, current, input, owner, true);
    await new Promise((resolveWait) => setTimeout(resolveWait, POLL_MS));
  }
  throw new LiftError(
    'IN_FLIGHT',
    `Approval '${approvalId}' is being executed by ${describeOwner(current)}.`,
    {
      outcome: 'unknown',
      hint: 'Wait for it, then run lift approve again: it answers with the result and never runs the call twice.',
    },
  );
}

async function execute(
  runtime: Runtime,
  approval: Approval,
  input: unknown,
  owner: LeaseOwner,
  takingOver: boolean,
): Promise<Envelope> {
  const { approvals } = runtime.store;
  // A lease renewal that fails (the shared store restarting) is retried at the next beat.
  const heartbeat = setInterval(
    () => Promise.resolve(approvals.heartbeat(approval.id, owner)).catch(() => undefined),
    HEARTBEAT_MS,
  );
  heartbeat.unref();
  let envelope: Envelope;
  try {
    envelope = await runtime.invoke(approval.tool, input, {
      approvalId: approval.id,
      ...(approval.requestId ? { requestId: approval.requestId } : {}),
      ...(takingOver ? { settleFirst: true } : {}),
    });
  } finally {
    clearInterval(heartbeat);
  }
  // A claim still held by a live process (a Lift that approved it before leases) is its to finish.
  if (!envelope.ok && 'error' in envelope && envelope.error.code === 'IN_FLIGHT') return envelope;
  if (didNothingForWantOfTheProgram(envelope)) {
    const held = stillHeld(envelope, approval.id);
    await approvals.holdAgain(approval.id, JSON.stringify(held));
    return held;
  }
  await approvals.recordExecution(approval.id, JSON.stringify(envelope));
  return envelope;
}

/**
 * Failures that leave a yes unused: the program could not be reached, or was busy, and the call
 * says nothing started. The call is held again, for the same approval, once the program answers.
 */
const NOT_USED_UP: ReadonlySet<string> = new Set(['UPSTREAM_UNAVAILABLE', 'LOCKED', 'RATE_LIMITED']);

function didNothingForWantOfTheProgram(envelope: Envelope): boolean {
  return (
    'error' in envelope && envelope.error.outcome === 'not_started' && NOT_USED_UP.has(envelope.error.code)
  );
}

/** The attempt's answer, saying that the call is still held and how to run it when the program answers. */
function stillHeld(envelope: Envelope, approvalId: string): Envelope {
  if (!('error' in envelope)) return envelope;
  const again = `Nothing ran and the approval is not used up: the call is held again as ${approvalId}; approve it again (lift approve ${approvalId}, or the console) once the program answers.`;
  return { ...envelope, error: { ...envelope.error, hint: `${envelope.error.hint} ${again}` } };
}

/** Who runs an approved call, in words: `pid 4242 on build-7 (last seen 12:00:05)`. */
export function describeOwner(approval: Approval | undefined): string {
  const owner = approval?.owner;
  if (!owner) return 'another approver';
  return `pid ${owner.pid} on ${owner.host} (last seen ${owner.heartbeatAt})`;
}
