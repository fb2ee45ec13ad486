import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { openRuntime } from '../open-runtime.js';

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
    io.err(approval ? `${id} is already ${approval.state}.` : `No held call has approval id '${id}'.`);
    return 1;
  } finally {
    await runtime.close();
  }
};
