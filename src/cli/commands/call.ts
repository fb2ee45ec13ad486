import { parse, parseJsonArgument, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';

/** lift call NAME --input JSON [--request-id ID]: the envelope on stdout, exit 0 when ok. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    input: { type: 'string', default: '{}' },
    'request-id': { type: 'string' },
    json: { type: 'boolean', default: true },
  });
  const name = positionals[0];
  if (!name) throw new UsageError('Usage: lift call NAME --input JSON [--request-id ID]');
  const input = parseJsonArgument(values.input, '--input');
  const runtime = await openRuntime(io);
  try {
    const requestId = values['request-id'];
    const envelope = await runtime.invoke(name, input, requestId ? { requestId } : {});
    printJson(io, envelope);
    return envelope.ok ? 0 : 1;
  } finally {
    await runtime.close();
  }
};
