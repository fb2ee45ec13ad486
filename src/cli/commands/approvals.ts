import { type Approval, approverIsGone } from '../../store/approvals.js';
import { parse } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { defineCommand } from '../spec.js';

export const spec = defineCommand({
  name: 'approvals',
  summary: 'held calls waiting for a person',
  options: {
    all: { type: 'boolean', default: false, description: 'also approved, executed and denied calls' },
    json: { type: 'boolean', default: false, description: 'print JSON instead of text' },
  },
  examples: ['lift approvals', 'lift approvals --all --json'],
});

/** What `lift approvals` says of an approved call: who runs it, and whether that process is gone. */
function inFlight(approval: Approval): { owner_gone: boolean; text: string } | undefined {
  if (approval.state !== 'approved') return undefined;
  const owner = approval.owner
    ? `pid ${approval.owner.pid} on ${approval.owner.host}`
    : 'an approver of Lift 0.1.0';
  if (!approverIsGone(approval))
    return {
      owner_gone: false,
      text: `in flight: running in ${owner}, last seen ${approval.owner?.heartbeatAt}`,
    };
  return {
    owner_gone: true,
    text: `in flight, its owner (${owner}) is gone: it may have landed. lift approve ${approval.id} reads first and runs it at most once.`,
  };
}

/** lift approvals [--all]: held calls waiting for a person, and approved calls still in flight. */
export const run: Command = async (args, io) => {
  const { values } = parse(args, spec);
  const runtime = await openRuntime(io);
  try {
    const states = values.all
      ? (['pending', 'approved', 'executed', 'denied'] as const)
      : (['pending', 'approved'] as const);
    const approvals = await runtime.store.approvals.list([...states]);
    if (values.json) {
      printJson(
        io,
        approvals.map((approval) => {
          // Held inputs are stored masked; a secret stored since is masked on the way out too.
          const { envelope: _envelope, inputHash: _hash, masks: _masks, ...stored } = approval;
          const shown = runtime.store.secrets.scrubValue(stored);
          const flight = inFlight(approval);
          return flight ? { ...shown, in_flight: true, owner_gone: flight.owner_gone } : shown;
        }),
      );
      return 0;
    }
    if (approvals.length === 0) {
      io.out('No held calls.');
      return 0;
    }
    for (const approval of approvals) {
      io.out(
        `${approval.id}  ${approval.state.padEnd(8)}  ${approval.gate.padEnd(9)}  ${approval.tool}  ${approval.createdAt}`,
      );
      io.out(`    ${runtime.store.secrets.scrub(approval.preview).split('\n').join('\n    ')}`);
      io.out(`    input digest: ${approval.inputDigest}`);
      const flight = inFlight(approval);
      if (flight) io.out(`    ${flight.text}`);
      if (approval.phrase && approval.state === 'pending')
        io.out(`    to approve, type: lift approve ${approval.id} --phrase "${approval.phrase}"`);
    }
    return 0;
  } finally {
    await runtime.close();
  }
};
