import { parse } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';

/** lift approvals [--all]: held calls waiting for a person. */
export const run: Command = async (args, io) => {
  const { values } = parse(args, {
    json: { type: 'boolean', default: false },
    all: { type: 'boolean', default: false },
  });
  const runtime = await openRuntime(io);
  try {
    const states = values.all
      ? (['pending', 'approved', 'executed', 'denied'] as const)
      : (['pending'] as const);
    const approvals = runtime.store.approvals.list([...states]);
    if (values.json) {
      printJson(
        io,
        approvals.map(({ envelope: _envelope, ...approval }) => approval),
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
      io.out(`    ${approval.preview.split('\n').join('\n    ')}`);
      if (approval.phrase && approval.state === 'pending')
        io.out(`    to approve, type: lift approve ${approval.id} --phrase "${approval.phrase}"`);
    }
    return 0;
  } finally {
    await runtime.close();
  }
};
