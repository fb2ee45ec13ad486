import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { numberFlag } from '../number-flag.js';
import { openRuntime, sharedStoreUrl } from '../open-runtime.js';
import { ROOT_OPTION } from '../root-flags.js';
import { defineCommand } from '../spec.js';

export const spec = defineCommand({
  name: 'worker',
  summary: 'take jobs from the shared queue and run them, with warm pools, until SIGTERM',
  options: {
    concurrency: { type: 'string', default: '2', value: 'N', description: 'jobs run at once (1 to 32)' },
    address: {
      type: 'string',
      value: 'ADDRESS',
      description: "this host's address, shown in the worker registry (default: the host name)",
    },
    root: ROOT_OPTION,
    'grace-s': {
      type: 'string',
      default: '30',
      value: 'S',
      description: 'on SIGTERM, how long running jobs may finish before they are handed back',
    },
  },
  examples: ['lift worker', 'lift worker --concurrency 4 --address 10.0.0.7'],
  notes:
    'Needs the shared store: store.postgres in lift.config (or LIFT_POSTGRES_URL). Jobs come from lift call --queue and lift serve --queue; a job held for a person runs on a worker once approved anywhere. SIGTERM finishes or hands back the jobs in hand; a worker killed mid-job is noticed by the others after a lease (30 s), and its jobs run again after a settle read.',
});

/** lift worker: runs jobs until SIGTERM or SIGINT, then stops taking them and hands back what it cannot finish. */
export const run: Command = async (args, io) => {
  const { values } = parse(args, spec);
  const concurrency = numberFlag(values.concurrency, '--concurrency', {
    min: 1,
    max: 32,
    unit: 'jobs',
    integer: true,
  });
  const graceS = numberFlag(values['grace-s'], '--grace-s', { min: 0, max: 3_600, unit: 'seconds' });
  const runtime = await openRuntime(io, { roots: values.root });
  try {
    const url = await sharedStoreUrl(runtime);
    if (!url)
      throw new UsageError(
        'lift worker needs the shared store: set store.postgres in lift.config (or LIFT_POSTGRES_URL) to a postgres:// URL.',
      );
    const { Worker } = await import('../../worker/worker.js');
    const worker = new Worker({
      runtime,
      url,
      ...(concurrency ? { concurrency } : {}),
      ...(values.address ? { address: values.address } : {}),
      ...(graceS !== undefined ? { graceMs: graceS * 1000 } : {}),
      log: (line) => io.err(line),
    });
    await worker.start();
    await new Promise<void>((resolve) => {
      process.once('SIGTERM', () => resolve());
      process.once('SIGINT', () => resolve());
    });
    io.err(`worker ${worker.id}: stopping; ${worker.done} job(s) done`);
    await worker.stop();
    return 0;
  } finally {
    await runtime.close();
  }
};
