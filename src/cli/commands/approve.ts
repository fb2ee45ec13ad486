import { describeEnvelope } from '../../contract/envelope.js';
import { isLiftError } from '../../contract/errors.js';
import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { defineCommand } from '../spec.js';

export const spec = defineCommand({
  name: 'approve',
  summary: 'run a held call exactly once and print its envelope',
  arguments: [{ name: 'id', description: 'the approval id (lift approvals)' }],
  options: {
    phrase: { type: 'string', value: 'TEXT', description: 'the typed phrase a signature gate asks for' },
    by: { type: 'string', value: 'NAME', description: 'who approves (default: $USER)' },
    json: { type: 'boolean', default: false, description: 'print the envelope as JSON' },
  },
  examples: ['lift approve ap_3f2a9c', 'lift approve ap_3f2a9c --phrase "send 3 invoices" --json'],
});

/** lift approve ID [--phrase TEXT]: runs the held call exactly once and prints its envelope. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const id = positionals[0];
  if (!id) throw new UsageError('Usage: lift approve ID [--phrase TEXT]');
  const runtime = await openRuntime(io);
  try {
    const envelope = await runtime.approve(id, {
      by: values.by ?? io.env.USER ?? 'person',
      ...(values.phrase !== undefined ? { phrase: values.phrase } : {}),
    });
    if (values.json) printJson(io, envelope);
    else io.out(`${id}: ${describeEnvelope(envelope)}`);
    return envelope.ok ? 0 : 1;
  } catch (error) {
    if (!isLiftError(error)) throw error;
    if (values.json)
      printJson(io, { ok: false, error: { code: error.code, message: error.message, hint: error.hint } });
    else io.err(`${error.code}: ${error.message}${error.hint ? `\n${error.hint}` : ''}`);
    return 1;
  } finally {
    await runtime.close();
  }
};
