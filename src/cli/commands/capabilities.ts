import { readFileSync } from 'node:fs';
import type { Capability } from '../../capability/capability.js';
import { diffValues, formatDifference } from '../../capability/diff.js';
import { CapabilityStore } from '../../capability/store.js';
import { EFFECT_CLASSES, type EffectClass } from '../../contract/effects.js';
import { LiftError } from '../../contract/errors.js';
import { describeTarget } from '../../replay/targets.js';
import type { Runtime } from '../../runtime/runtime.js';
import { parse, parseJsonArgument, UsageError } from '../args.js';
import type { CliIo, Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { recipeFromFlags, SIGN_IN_OPTIONS } from '../sign-in-flags.js';
import { defineCommand } from '../spec.js';

const USAGE =
  'Usage: lift capabilities list | show REF | diff REF1 REF2 | add FILE --effect read|reversible|visible|irreversible [--user USER --secret NAME | --sign-in FILE] | enable NAME\n' +
  'REF is a revision (or a unique prefix of one) or a capability name (its newest revision).';

async function resolveRef(store: CapabilityStore, ref: string | undefined): Promise<string> {
  if (!ref) throw new UsageError(USAGE);
  const found = await store.resolve(ref);
  if (!found)
    throw new LiftError('NOT_FOUND', `No stored capability matches '${ref}'.`, {
      hint: 'lift capabilities list',
    });
  return found.revision;
}

function fail(io: CliIo, error: unknown, json: boolean): number {
  if (!(error instanceof LiftError)) throw error;
  if (json)
    printJson(io, {
      ok: false,
      error: { code: error.code, message: error.message, hint: error.hint, details: error.details },
    });
  else io.err(`${error.code}: ${error.message}${error.hint ? `\n${error.hint}` : ''}`);
  return 1;
}

const REF = {
  name: 'ref',
  description: 'a revision, a unique prefix of one, or a capability name (its newest revision)',
};

export const spec = defineCommand({
  name: 'capabilities',
  summary: 'content-addressed capabilities: list, inspect, compare, register as tools',
  options: {
    effect: {
      type: 'string',
      value: EFFECT_CLASSES.join('|'),
      description: 'the side-effect class the reviewer declares for the tool',
    },
    ...SIGN_IN_OPTIONS,
    json: { type: 'boolean', default: false, description: 'print JSON instead of text' },
  },
  examples: ['lift capabilities list', 'lift capabilities add member_lookup.json --effect read'],
  subcommands: {
    list: {
      summary: 'stored capabilities and whether each is a registered tool',
      options: ['json'],
      examples: ['lift capabilities list', 'lift capabilities list --json'],
      default: true,
    },
    show: {
      summary: "a capability's inputs, outputs, steps, checkpoint and provenance",
      arguments: [REF],
      options: ['json'],
      examples: ['lift capabilities show member_lookup', 'lift capabilities show 3f2a9c --json'],
    },
    diff: {
      summary: 'what changed between two revisions',
      arguments: [REF, { ...REF, name: 'other' }],
      options: ['json'],
      examples: ['lift capabilities diff 3f2a9c 81b0de'],
    },
    add: {
      summary: 'store a capability file and register it as a tool',
      arguments: [{ name: 'file', description: 'a capability JSON file' }],
      options: ['effect', 'user', 'secret', 'sign-in', 'json'],
      examples: [
        'lift capabilities add member_lookup.json --effect read',
        'lift capabilities add add_note.json --effect visible --user clerk --secret backoffice_password',
        'lift capabilities add insert_row.json --effect visible --sign-in phpmyadmin-sign-in.json',
      ],
    },
    enable: {
      summary: 'switch a capability tool on again after it was disabled for failing',
      arguments: [{ name: 'name', description: 'the registered capability name' }],
      options: ['json'],
      examples: ['lift capabilities enable member_lookup'],
    },
  },
});

/** lift capabilities: what discovery left behind, inspectable, comparable, registrable as tools. */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, spec);
  const [action = 'list', first, second] = positionals;
  const runtime = await openRuntime(io);
  try {
    return await dispatch(runtime, io, action, first, second, values);
  } catch (error) {
    return fail(io, error, values.json);
  } finally {
    await runtime.close();
  }
};

async function dispatch(
  runtime: Runtime,
  io: CliIo,
  action: string,
  first: string | undefined,
  second: string | undefined,
  values: {
    json: boolean;
    effect?: string | undefined;
    user?: string | undefined;
    secret?: string | undefined;
  },
): Promise<number> {
  const store = new CapabilityStore(runtime.store.capabilities);
  const { registrations } = runtime.store;
  switch (action) {
    case 'list': {
      const registered = new Map((await registrations.list()).map((entry) => [entry.name, entry]));
      const rows = (await store.list()).map((stored) => {
        const registration = registered.get(stored.name);
        const tool = registration?.revision === stored.revision ? registration : undefined;
        return { ...stored, tool: tool ? { effect: tool.effectClass, enabled: tool.enabled } : undefined };
      });
      if (values.json) printJson(io, rows);
      else if (rows.length === 0) io.out('No capabilities yet (lift discover, or lift demo).');
      else
        for (const row of rows) {
          const tool = row.tool
            ? `tool ${row.tool.effect}${row.tool.enabled ? '' : ' DISABLED'}`
            : 'not registered';
          io.out(
            `${row.revision.slice(0, 12)}  ${row.name.padEnd(28)} ${String(row.steps).padStart(2)} steps  ${tool.padEnd(16)} ${row.intent}`,
          );
        }
      return 0;
    }
    case 'show': {
      const revision = await resolveRef(store, first);
      const capability = await store.load(revision);
      const file = (await store.resolve(revision))?.file;
      if (values.json) {
        printJson(io, { revision, ...(file ? { file } : {}), capability });
        return 0;
      }
      io.out(`${capability.name}  revision ${revision}`);
      if (file) io.out(`file: ${file}`);
      io.out(`intent: ${capability.intent}`);
      io.out(`inputs: ${capability.inputs.map((input) => `${input.name}: ${input.type}`).join(', ')}`);
      io.out(`outputs: ${capability.outputs.map((output) => `${output.name}: ${output.type}`).join(', ')}`);
      io.out(
        `start: ${capability.preconditions.origin}${capability.preconditions.path} (fingerprint ${capability.preconditions.fingerprint.slice(0, 12)})`,
      );
      capability.steps.forEach((step, index) => {
        io.out(
          `  ${index + 1}. ${step.op} ${step.op === 'navigate' ? step.path : describeTarget(step.target)}${step.op === 'read' ? ` -> ${step.output}` : ''}`,
        );
      });
      io.out(
        `checkpoint: ${describeTarget(capability.checkpoint.target)} == ${capability.checkpoint.equals.input}`,
      );
      io.out(`outcomes: ${capability.outcomes.join(', ')}`);
      io.out(
        `provenance: ${capability.provenance.explorer}${capability.provenance.model ? ` ${capability.provenance.model}` : ''}, run ${capability.provenance.runId}, ${capability.provenance.createdAt}, Lift ${capability.provenance.liftVersion}`,
      );
      io.out(describeRehearsal(capability.rehearsal));
      const registration = await registrations.get(capability.name);
      if (registration?.revision === revision)
        io.out(
          registration.enabled
            ? `tool: ${registration.name} (${registration.effectClass}), enabled`
            : `tool: ${registration.name} (${registration.effectClass}), switched off: ${registration.disabledReason ?? 'disabled'} (lift capabilities enable ${registration.name})`,
        );
      return 0;
    }
    case 'diff': {
      const before = await store.load(await resolveRef(store, first));
      const after = await store.load(await resolveRef(store, second));
      const differences = diffValues(before, after);
      if (values.json) printJson(io, differences);
      else if (differences.length === 0) io.out('The two revisions are identical.');
      else for (const difference of differences) io.out(formatDifference(difference));
      return 0;
    }
    case 'add': {
      if (!first) throw new UsageError(USAGE);
      const effect = values.effect;
      if (!effect || !(EFFECT_CLASSES as readonly string[]).includes(effect)) {
        throw new UsageError(
          `--effect is required: the reviewer declares the side-effect class (${EFFECT_CLASSES.join('|')}).`,
        );
      }
      const signIn = recipeFromFlags(values, io.cwd);
      const { revision, capability } = await store.save(
        parseJsonArgument(readFileSync(first, 'utf8'), first),
      );
      const registration = await registrations.register({
        name: capability.name,
        revision,
        effectClass: effect as EffectClass,
        ...(signIn ? { signIn } : {}),
      });
      if (values.json)
        printJson(io, { ok: true, name: registration.name, revision, effect: registration.effectClass });
      else
        io.out(
          `Registered ${registration.name} (revision ${revision.slice(0, 12)}, effect ${registration.effectClass}, rung script). lift call ${registration.name} --input JSON`,
        );
      return 0;
    }
    case 'enable': {
      if (!first) throw new UsageError(USAGE);
      if (!(await registrations.enable(first)))
        throw new LiftError('NOT_FOUND', `No registered capability is named '${first}'.`);
      if (values.json) printJson(io, { ok: true, name: first, enabled: true });
      else io.out(`${first} is enabled again.`);
      return 0;
    }
    default:
      throw new UsageError(USAGE);
  }
}

/** The rehearsal complete ran before the capability was written, in one line. */
function describeRehearsal(rehearsal: Capability['rehearsal']): string {
  if (!rehearsal) return 'rehearsal: none (compiled before complete rehearsed what it compiled)';
  const runs = rehearsal.runs.map(
    (run) => `${run.kind} on ${run.inputs} inputs: ${run.outcome} in ${run.ms} ms`,
  );
  return `rehearsal: passed ${rehearsal.at}; ${runs.join('; ')}`;
}
