import { type Envelope, isPending, type PendingEnvelope } from '../../contract/envelope.js';
import { awaitAnswer } from '../../runtime/await-answer.js';
import type { Runtime } from '../../runtime/runtime.js';
import type { RunEvent } from '../../store/runs.js';
import { parse, parseJsonArgument, UsageError } from '../args.js';
import { exitStatusOf } from '../exit-status.js';
import type { CliIo, Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { callProgress } from '../progress.js';
import { queuedInvoke } from '../queued-invoke.js';
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
    wait: {
      type: 'boolean',
      default: false,
      description:
        'when the call is held, wait for the answer (lift approve, lift deny or the console); a replay that meets an expired session waits for a person to sign in through the console',
    },
    queue: {
      type: 'boolean',
      default: false,
      description:
        'send the call to the shared job queue and wait for a worker to run it (needs store.postgres)',
    },
  },
  examples: [
    `lift call inventory_find_items --input '{"sku":"A-100"}'`,
    `lift call inventory_create_item --input '{"sku":"B-5678","name":"Gadget","qty":2,"location":"Shelf 2","request_id":"add-1"}'`,
    `lift call inventory_find_items --input '{"sku":"A-100"}' --queue`,
  ],
  notes:
    'Exit status: 0 when the envelope is ok, 4 when the call is held for a person (the envelope says APPROVAL_PENDING and its approval id; --wait waits for the answer), 1 otherwise.',
});

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

/** lift call NAME --input JSON [--request-id ID] [--wait] [--queue]: the envelope on stdout, exit 0 when ok. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const name = positionals[0];
  if (!name) throw new UsageError('Usage: lift call NAME --input JSON [--request-id ID] [--wait] [--queue]');
  const input = parseJsonArgument(values.input, '--input');
  const runtime = await openRuntime(io, { attended: values.wait });
  try {
    const requestId = values['request-id'];
    const progress = callProgress(io, name, (text) => runtime.store.secrets.scrub(text));
    const onEvent = (event: RunEvent) => {
      if (event.type === 'replay-handoff-start')
        io.err(
          `${name} needs a person: ${String(event.reason)}. Take the page over in the console (lift console, Handoffs).`,
        );
      progress.onEvent?.(event);
    };
    const answer = values.queue
      ? queuedInvoke(runtime)(name, input, requestId ? { requestId } : {})
      : runtime.invoke(name, input, { ...(requestId ? { requestId } : {}), onEvent });
    let envelope = await answer.finally(() => progress.end());
    if (values.wait && isPending(envelope)) envelope = await waitForPerson(runtime, envelope, io);
    printJson(io, envelope);
    return exitStatusOf(envelope);
  } finally {
    await runtime.close();
  }
};
