import { createInterface } from 'node:readline/promises';
import type { Budgets } from '../../agent/budgets.js';
import type { Conversation } from '../../agent/gate.js';
import { runAgent } from '../../agent/loop.js';
import { loadConfig } from '../../config/load.js';
import { isLiftError } from '../../contract/errors.js';
import { modelClientFor } from '../../model/model-settings.js';
import { parse, UsageError } from '../args.js';
import { EXIT_HELD } from '../exit-status.js';
import type { CliIo, Command } from '../io.js';
import { printJson } from '../io.js';
import { snakeCaseKeys } from '../json-keys.js';
import { numberFlag } from '../number-flag.js';
import { openRuntime } from '../open-runtime.js';
import { defineCommand } from '../spec.js';

const USAGE_NOTES =
  'The model is LIFT_MODEL=provider:model (openai:..., anthropic:..., or any OpenAI-compatible name with LIFT_BASE_URL);\n' +
  'its key is the secret PROVIDER_api_key (lift secrets set openai_api_key).\n' +
  'Exit status: 0 answered, 1 failed, 3 a budget ran out, 4 a held call is pending.';
const USAGE = `Usage: lift run "REQUEST" [FLAGS] (lift run --help)\n${USAGE_NOTES}`;

const EXIT = { answered: 0, failed: 1, budget: 3, pending: EXIT_HELD } as const;

/** Each budget flag and the range it takes: a typo such as 1e9 is refused, not run. */
const BUDGET_FLAGS = {
  'max-turns': { name: 'modelCalls', range: { min: 1, max: 1_000, unit: 'model calls', integer: true } },
  'max-steps': { name: 'steps', range: { min: 1, max: 10_000, unit: 'steps', integer: true } },
  'max-seconds': { name: 'seconds', range: { min: 0, aboveMin: true, max: 86_400, unit: 'seconds' } },
} as const;

function budgetsFrom(values: Record<string, unknown>): Partial<Budgets> {
  const budgets: Partial<Budgets> = {};
  for (const [flag, { name, range }] of Object.entries(BUDGET_FLAGS)) {
    const value = numberFlag(values[flag] as string | undefined, `--${flag}`, range);
    if (value !== undefined) budgets[name] = value;
  }
  return budgets;
}

/** The person at the terminal; a run without a terminal cannot be asked, so held calls stay pending. */
function terminal(io: CliIo, quiet: boolean): Conversation & { close(): void } {
  const stdin = io.stdin;
  const lines = stdin?.isTTY ? createInterface({ input: stdin, output: process.stdout }) : undefined;
  return {
    say: (text) => {
      if (!quiet) io.out(text);
    },
    ask: async (question) => (lines ? lines.question(`${question}\n> `) : undefined),
    close: () => lines?.close(),
  };
}

export const spec = defineCommand({
  name: 'run',
  summary: 'the agent: few model calls per task, the approval gate in conversation',
  arguments: [{ name: 'request', description: 'what to do, in words', variadic: true }],
  options: {
    yes: { type: 'boolean', default: false, description: 'approve held calls without asking' },
    'max-turns': { type: 'string', value: 'N', description: 'at most this many model calls' },
    'max-steps': { type: 'string', value: 'N', description: 'at most this many tool calls' },
    'max-seconds': { type: 'string', value: 'S', description: 'stop after this many seconds' },
    'hedge-s': {
      type: 'string',
      value: 'S',
      description: 'send a backup request when the model has not answered after S seconds (0: never)',
    },
    attach: {
      type: 'string',
      multiple: true,
      value: 'FILE',
      description: 'a file the request is about (repeatable)',
    },
    'no-shortlist': { type: 'boolean', default: false, description: 'offer every tool, not the shortlist' },
    'no-chain': { type: 'boolean', default: false, description: 'do not offer run_chain' },
    json: {
      type: 'boolean',
      default: false,
      description: 'print the outcome, answer and ledger row as JSON',
    },
  },
  examples: [
    'LIFT_MODEL=openai:gpt-4.1-mini lift run "add 2 Gadgets B-5678 on Shelf 2"',
    'lift run "restart the worker" --yes --max-turns 4 --json',
  ],
  notes: USAGE_NOTES,
});

/** lift run "REQUEST": the agent loop, a trace line per model and tool call, then the answer. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const request = positionals.join(' ').trim();
  if (!request) throw new UsageError(USAGE);
  const model = io.env.LIFT_MODEL;
  if (!model) throw new UsageError(`LIFT_MODEL is not set.\n${USAGE}`);
  // 0 turns hedging off.
  const hedge = numberFlag(values['hedge-s'], '--hedge-s', { min: 0, max: 600, unit: 'seconds' });
  const budgets = budgetsFrom(values);

  const config = await loadConfig(io.cwd, io.env);
  const runtime = await openRuntime(io);
  const conversation = terminal(io, values.json);
  try {
    const client = modelClientFor(
      { model, baseURL: io.env.LIFT_BASE_URL, hedgeSeconds: hedge },
      runtime.store.secrets,
      io.env,
    );
    const result = await runAgent(request, {
      runtime,
      client,
      conversation,
      budgets,
      shortlist: !values['no-shortlist'],
      shortlistConfig: config.shortlist,
      chain: !values['no-chain'],
      autoApprove: values.yes,
      attachments: values.attach ?? [],
    });
    if (values.json) {
      printJson(io, {
        outcome: result.outcome,
        answer: result.answer,
        ...(result.stoppedBy ? { stopped_by: result.stoppedBy } : {}),
        run_id: result.runId,
        ledger: snakeCaseKeys(result.row),
        pending: result.pending.map(snakeCaseKeys),
      });
    } else io.out(result.answer);
    return EXIT[result.outcome];
  } catch (error) {
    if (!isLiftError(error)) throw error;
    if (values.json)
      printJson(io, {
        outcome: 'failed',
        error: { code: error.code, message: error.message, hint: error.hint },
      });
    else io.err(`${error.code}: ${error.message}${error.hint ? `\n${error.hint}` : ''}`);
    return 1;
  } finally {
    conversation.close();
    await runtime.close();
  }
};
