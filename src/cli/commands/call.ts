import { type Envelope, isPending, type PendingEnvelope } from '../../contract/envelope.js';
import { awaitAnswer } from '../../runtime/await-answer.js';
import type { Runtime } from '../../runtime/runtime.js';
import { parse, parseJsonArgument, UsageError } from '../args.js';
import type { CliIo, Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';

/** With --wait a held call waits for its answer (the console, lift approve or deny); Ctrl-C leaves it held. */
async function waitForPerson(runtime: Runtime, pending: PendingEnvelope, io: CliIo): Promise<Envelope> {
  const id = pending.pending.approval_id;
  io.err(
    `${pending.tool} is held for ${pending.pending.gate} (${id}); waiting for an answer (lift console, lift approve ${id}).`,
  );
  const stop = new AbortController();
  const abort = () => stop.abort();
  process.once('SIGINT', abort);
  try {
    return await awaitAnswer(runtime, pending, {
      signal: stop.signal,
      onReplaced: (from, to) =>
        io.err(`${from} was changed by a person; waiting for the changed call ${to}.`),
    });
  } finally {
    process.removeListener('SIGINT', abort);
  }
}

/** lift call NAME --input JSON [--request-id ID] [--wait]: the envelope on stdout, exit 0 when ok. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    input: { type: 'string', default: '{}' },
    'request-id': { type: 'string' },
    json: { type: 'boolean', default: true },
    wait: { type: 'boolean', default: false },
  });
  const name = positionals[0];
  if (!name) throw new UsageError('Usage: lift call NAME --input JSON [--request-id ID] [--wait]');
  const input = parseJsonArgument(values.input, '--input');
  const runtime = await openRuntime(io);
  try {
    const requestId = values['request-id'];
    let envelope = await runtime.invoke(name, input, requestId ? { requestId } : {});
    if (values.wait && isPending(envelope)) envelope = await waitForPerson(runtime, envelope, io);
    printJson(io, envelope);
    return envelope.ok ? 0 : 1;
  } finally {
    await runtime.close();
  }
};
