import { type Approval, approverIsGone } from '../../store/approvals.js';
import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { openRuntime } from '../open-runtime.js';

/** Why a call that is no longer pending cannot be denied, truthfully. */
function notPending(approval: Approval): string {
  if (approval.state !== 'approved') return `${approval.id} is already ${approval.state}.`;
  const owner = approval.owner ? `pid ${approval.owner.pid} on ${approval.owner.host}` : 'its approver';
  if (!approverIsGone(approval))
    return `${approval.id} was approved and is running now (${owner}); it can no longer be denied.`;
  return `${approval.id} was approved and is in flight, but its owner (${owner}) is gone: it may have landed, so it cannot be denied. Run lift approve ${approval.id}: it reads whether the call landed and runs it at most once.`;
}

/** lift deny ID: drops a held call; it never runs. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, { by: { type: 'string' } });
  const id = positionals[0];
  if (!id) throw new UsageError('Usage: lift deny ID');
  const runtime = await openRuntime(io);
  try {
    if (runtime.deny(id, values.by ?? io.env.USER ?? 'person')) {
      io.out(`${id}: denied; the held call will not run.`);
      return 0;
    }
    const approval = runtime.store.approvals.get(id);
    io.err(approval ? notPending(approval) : `No held call has approval id '${id}'.`);
    return 1;
  } finally {
    await runtime.close();
  }
};
