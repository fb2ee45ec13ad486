import { existsSync, readFileSync } from 'node:fs';
import { LiftError } from '../../contract/errors.js';
import { type Capability, validateCapability } from '../../discover/capability.js';
import { CapabilityStore } from '../../discover/capability-store.js';
import { REPLAY_POOL_SERVICE, startReplayPool } from '../../replay/browser.js';
import { replayCapability } from '../../replay/engine.js';
import { parse, parseJsonArgument, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { snakeCaseKeys } from '../json-keys.js';
import { openRuntime } from '../open-runtime.js';
import { defineCommand } from '../spec.js';

const USAGE =
  'Usage: lift replay CAPABILITY --input JSON [--revision SHA256] [--layout-tolerant] [--user USER --secret NAME] [--json]\n' +
  'CAPABILITY is a stored name, revision or prefix, or a capability JSON file.';

export const spec = defineCommand({
  name: 'replay',
  summary: 'model-free replay of a capability',
  arguments: [
    { name: 'capability', description: 'a stored name, revision or prefix, or a capability JSON file' },
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
    user: { type: 'string', value: 'USER', description: 'sign in as this user first' },
    secret: { type: 'string', value: 'NAME', description: "the secret holding that user's password" },
    json: { type: 'boolean', default: false, description: 'print JSON instead of text' },
  },
  examples: [
    `lift replay member_lookup --input '{"memberId":"M-1002"}'`,
    `lift replay ./member_lookup.json --input '{"memberId":"M-1002"}' --user clerk --secret backoffice_password --json`,
  ],
});

/** Neither a stored capability nor a file: NOT_FOUND with the names that are stored. */
function notFound(reference: string, store: CapabilityStore): LiftError {
  const names = [...new Set(store.list().map((stored) => stored.name))].sort();
  return new LiftError('NOT_FOUND', `No capability is named '${reference}', and no file has that path.`, {
    hint: names.length
      ? `Stored capabilities: ${names.join(', ')} (lift capabilities list).`
      : 'No capability is stored yet: lift discover or lift capabilities add FILE stores one.',
    details: { capabilities: names },
  });
}

/** lift replay: one model-free replay, its events in a run whose model-event count is zero. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const reference = positionals[0];
  if (!reference) throw new UsageError(USAGE);
  const input = parseJsonArgument(values.input, '--input');
  const runtime = await openRuntime(io);
  const runId = runtime.store.runs.start('replay', `replay ${reference}`);
  const emit = (event: { type: string; [key: string]: unknown }) =>
    runtime.store.runs.append(runId, [{ t: new Date().toISOString(), ...event }]);
  try {
    const store = new CapabilityStore(runtime.store.db, runtime.home);
    let capability: Capability;
    const stored = store.resolve(reference);
    if (stored) capability = store.load(stored.revision);
    else {
      if (!existsSync(reference)) throw notFound(reference, store);
      const parsed = validateCapability(parseJsonArgument(readFileSync(reference, 'utf8'), reference));
      if (!parsed.success)
        throw new LiftError(
          'BAD_INPUT',
          `${reference} is not a valid capability: ${parsed.issues.join('; ')}`,
        );
      capability = parsed.data;
    }
    const pool = await runtime.service(REPLAY_POOL_SERVICE, () => startReplayPool(runtime.home));
    const lease = await pool.page(capability.preconditions.origin);
    try {
      const { signInWithForm } = await import('../../replay/sign-in.js');
      const user = values.user;
      const secret = values.secret;
      const result = await replayCapability(capability, input, {
        page: lease.page,
        ...(values.revision ? { revision: values.revision } : {}),
        layoutTolerant: values['layout-tolerant'],
        evidenceDir: `${runtime.home}/out/replay/${runId}`,
        emit,
        ...(user && secret
          ? {
              signIn: async (page) => {
                await signInWithForm(page, { user, password: runtime.store.secrets.get(secret) });
                await lease.save();
              },
            }
          : {}),
      });
      runtime.store.runs.end(runId, true);
      if (values.json) printJson(io, { ok: true, run_id: runId, ...snakeCaseKeys(result) });
      else {
        io.out(
          `${capability.name} ${result.outcome} in ${result.durationMs} ms (revision ${result.revision.slice(0, 12)}, ${result.stepsRun} steps, run ${runId})`,
        );
        for (const [name, value] of Object.entries(result.outputs))
          io.out(`  ${name} = ${JSON.stringify(value)}`);
      }
      return 0;
    } finally {
      await lease.release();
    }
  } catch (error) {
    runtime.store.runs.end(runId, false);
    if (!(error instanceof LiftError)) throw error;
    if (values.json)
      printJson(io, {
        ok: false,
        run_id: runId,
        error: { code: error.code, message: error.message, hint: error.hint, details: error.details },
      });
    else io.err(`${error.code}: ${error.message}\n${error.hint ?? ''}`);
    return 1;
  } finally {
    await runtime.close();
  }
};
