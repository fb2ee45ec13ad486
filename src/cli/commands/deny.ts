import { type Approval, approverIsGone } from '../../store/approvals.js';
import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { defineCommand } from '../spec.js';

export const spec = defineCommand({
  name: 'deny',
  summary: 'drop a held call; it never runs',
  arguments: [{ name: 'id', description: 'the approval id (lift approvals)' }],
  options: {
    by: { type: 'string', value: 'NAME', description: 'who denies (default: $USER)' },
    json: { type: 'boolean', default: false, description: 'print JSON instead of text' },
  },
  examples: ['lift deny ap_3f2a9c', 'lift deny ap_3f2a9c --json'],
});

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
  const { values, positionals } = parse(args, spec);
  const id = positionals[0];
  if (!id) throw new UsageError('Usage: lift deny ID');
  const runtime = await openRuntime(io);
  try {
    if (await runtime.deny(id, values.by ?? io.env.USER ?? 'person')) {
      if (values.json) printJson(io, { ok: true, approval_id: id, state: 'denied' });
      else io.out(`${id}: denied; the held call will not run.`);
      return 0;
    }
    const approval = await runtime.store.approvals.get(id);
    const message = approval ? notPending(approval) : `No held call has approval id '${id}'.`;
    if (values.json)
      printJson(io, {
        ok: false,
        approval_id: id,
        ...(approval ? { state: approval.state } : {}),
        error: { code: approval ? 'CONFLICT' : 'APPROVAL_NOT_FOUND', message, hint: 'lift approvals --all' },
      });
    else io.err(message);
    return 1;
  } finally {
    await runtime.close();
  }
};
