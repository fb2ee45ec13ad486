import { existsSync, readFileSync } from 'node:fs';
import { type Envelope, isError, isPending } from '../../contract/envelope.js';
import { LiftError } from '../../contract/errors.js';
import type { ReplayResult } from '../../replay/engine.js';
import { capabilityDeps } from '../../replay/load.js';
import { resolveReplayTarget } from '../../replay/resolve.js';
import { capabilityTool, type ReplayOverrides, unregisteredCapabilityTool } from '../../replay/tool.js';
import { parse, parseJsonArgument, UsageError } from '../args.js';
import { EXIT_HELD } from '../exit-status.js';
import type { CliIo, Command } from '../io.js';
import { printJson } from '../io.js';
import { snakeCaseKeys } from '../json-keys.js';
import { openRuntime } from '../open-runtime.js';
import { callProgress } from '../progress.js';
import { recipeFromFlags, SIGN_IN_OPTIONS } from '../sign-in-flags.js';
import { defineCommand } from '../spec.js';

const USAGE =
  'Usage: lift replay CAPABILITY --input JSON [--revision SHA256] [--layout-tolerant] [--user USER --secret NAME | --sign-in FILE] [--request-id ID] [--json]\n' +
  'CAPABILITY is a registered name, a stored revision or prefix, or a capability JSON file. A write is held\n' +
  'for approval as lift call holds it; a file nobody registered is treated as irreversible unless none of its\n' +
  'steps can change state.';

export const spec = defineCommand({
  name: 'replay',
  summary: 'model-free replay of a capability',
  arguments: [
    {
      name: 'capability',
      description: 'a registered name, a stored revision or prefix, or a capability JSON file',
    },
  ],
  options: {
    input: {
      type: 'string',
      default: '{}',
      value: 'JSON',
      description: "the capability's inputs as a JSON object",
    },
    revision: {
      type: 'string',
      value: 'SHA256',
      description: 'refuse to run unless the content hashes to this revision',
    },
    'layout-tolerant': {
      type: 'boolean',
      default: false,
      description: 'find moved elements by their labels',
    },
    ...SIGN_IN_OPTIONS,
    'request-id': {
      type: 'string',
      value: 'ID',
      description: 'makes a retried write the same write (the ledger)',
    },
    json: { type: 'boolean', default: false, description: 'print JSON instead of text' },
  },
  examples: [
    `lift replay member_lookup --input '{"memberId":"M-1002"}'`,
    `lift replay ./member_lookup.json --input '{"memberId":"M-1002"}' --user clerk --secret backoffice_password --json`,
  ],
});

/** A replay's result as JSON: Lift's own keys in snake_case (duration_ms, steps_run), the outputs as named. */
function print(io: CliIo, envelope: Envelope, result: ReplayResult | undefined, json: boolean): number {
  if (isPending(envelope)) {
    if (json) printJson(io, envelope);
    else {
      const { approval_id: id, confirmation_phrase: phrase } = envelope.pending;
      io.out(`${envelope.summary} (run ${envelope.run_id})`);
      io.out(`to approve: lift approve ${id}${phrase ? ` --phrase "${phrase}"` : ''}`);
    }
    return EXIT_HELD;
  }
  if (isError(envelope)) {
    if (json) printJson(io, { ok: false, run_id: envelope.run_id, error: envelope.error });
    else io.err(`${envelope.error.code}: ${envelope.error.message}\n${envelope.error.hint ?? ''}`);
    return 1;
  }
  // Without a result the ledger answered: an earlier call with this request_id already did it.
  const { outcome, ...outputs } = envelope.fields as { outcome: string; [name: string]: unknown };
  const shown = result ?? { outcome, outputs };
  if (json)
    printJson(io, {
      ok: envelope.ok,
      run_id: envelope.run_id,
      effect: envelope.effect,
      ...snakeCaseKeys(shown),
    });
  else {
    io.out(
      result
        ? `${envelope.tool} ${result.outcome} in ${result.durationMs} ms (revision ${result.revision.slice(0, 12)}, ${result.stepsRun} steps, run ${envelope.run_id})`
        : `${envelope.tool}: ${envelope.summary} (run ${envelope.run_id})`,
    );
    for (const [name, value] of Object.entries(shown.outputs)) io.out(`  ${name} = ${JSON.stringify(value)}`);
  }
  return envelope.ok ? 0 : 1;
}

function readCapabilityFile(path: string): unknown | undefined {
  return existsSync(path) ? parseJsonArgument(readFileSync(path, 'utf8'), path) : undefined;
}

/**
 * lift replay: one model-free replay, run through invoke like every other way of running a
 * capability (lift call, MCP, the agent, run_chain): validation, the idempotency ledger,
 * the gate, the deadline and the run log, whose model-event count is zero.
 */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const reference = positionals[0];
  if (!reference) throw new UsageError(USAGE);
  const input = parseJsonArgument(values.input, '--input');
  const runtime = await openRuntime(io);
  try {
    const deps = capabilityDeps(runtime);
    const target = await resolveReplayTarget(deps, reference, readCapabilityFile);
    if (values.revision !== undefined && values.revision !== target.revision) {
      throw new LiftError(
        'REVISION_MISMATCH',
        `The capability hashes to ${target.revision.slice(0, 12)}, not the pinned ${values.revision.slice(0, 12)}.`,
        { outcome: 'not_started', details: { expected: values.revision, actual: target.revision } },
      );
    }
    const signIn = recipeFromFlags(values, io.cwd);
    // A held call of an unregistered capability signs in the same way once a person approves it.
    if (signIn && !target.registration) deps.signIns?.remember(target.revision, signIn);
    let result: ReplayResult | undefined;
    const overrides: ReplayOverrides = {
      layoutTolerant: values['layout-tolerant'],
      ...(signIn ? { signIn } : {}),
      onResult: (replayed) => {
        result = replayed;
      },
    };
    const tool = target.registration
      ? capabilityTool(target.capability, target.registration, deps, overrides)
      : unregisteredCapabilityTool(target.capability, target.revision, deps, overrides);
    const requestId = values['request-id'];
    const progress = callProgress(io, tool.name, (text) => runtime.store.secrets.scrub(text));
    const envelope = await runtime
      .invoke(tool, input, {
        ...(requestId ? { requestId } : {}),
        ...(progress.onEvent ? { onEvent: progress.onEvent } : {}),
      })
      .finally(() => progress.end());
    return print(io, envelope, result, values.json);
  } catch (error) {
    if (!(error instanceof LiftError)) throw error;
    if (values.json)
      printJson(io, {
        ok: false,
        error: { code: error.code, message: error.message, hint: error.hint, details: error.details },
      });
    else io.err(`${error.code}: ${error.message}\n${error.hint ?? ''}`);
    return 1;
  } finally {
    await runtime.close();
  }
};
