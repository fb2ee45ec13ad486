import { parse, parseJsonArgument, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { defineCommand } from '../spec.js';

export const spec = defineCommand({
  name: 'call',
  summary: 'one call under the contract: the envelope on stdout, exit 0 when ok',
  arguments: [{ name: 'name', description: 'the tool to call (lift tools list)' }],
  options: {
    input: { type: 'string', default: '{}', value: 'JSON', description: "the tool's input as a JSON object" },
    'request-id': {
      type: 'string',
      value: 'ID',
      description: 'idempotency key: a repeated id returns the first result instead of acting twice',
    },
    json: { type: 'boolean', default: true, description: 'print the envelope as JSON (always on)' },
  },
  examples: [
    `lift call tools_search --input '{"query":"invoice"}'`,
    `lift call inventory_add --input '{"sku":"B-5678","quantity":2}' --request-id add-1`,
  ],
  notes: 'Exit status: 0 when the envelope is ok, 1 otherwise (held calls print a pending envelope).',
});

/** lift call NAME --input JSON [--request-id ID]: the envelope on stdout, exit 0 when ok. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
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
