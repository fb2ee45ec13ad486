import type { InputSpec, OutputSpec } from '../../capability/capability.js';
import { FIELD_TYPES, type FieldType } from '../../capability/capability.js';
import { CapabilityStore } from '../../capability/store.js';
import { LIFT_VERSION } from '../../contract/version.js';
import type { Explorer } from '../../discover/explorers/explorer.js';
import { ModelExplorer } from '../../discover/explorers/model.js';
import { ScriptedExplorer } from '../../discover/explorers/scripted.js';
import { runDiscovery } from '../../discover/run.js';
import type { DiscoveryTask } from '../../discover/session.js';
import { openExplorationPage } from '../../discover/session-page.js';
import type { DiscoverySignIn } from '../../discover/ui-driver.js';
import { modelClientFor } from '../../model/model-settings.js';
import { loadPolicy } from '../../rungs/ui/policy.js';
import type { SecretStore } from '../../store/secrets.js';
import { parse, UsageError } from '../args.js';
import type { CliIo, Command } from '../io.js';
import { printJson } from '../io.js';
import { openRuntime } from '../open-runtime.js';
import { BROWSER_OPTIONS, browserFrom, recipeFromFlags, SIGN_IN_OPTIONS } from '../sign-in-flags.js';
import { defineCommand } from '../spec.js';

const USAGE =
  'Usage: lift discover --url URL --policy FILE --task TEXT --input name=value... --output name:type... [--name NAME]\n' +
  '         [--hide COLUMN]... [--user USER --secret NAME | --sign-in FILE]\n' +
  '         [--browser-url URL | --cdp-endpoint URL | --storage-state FILE] [--script FILE | --mcp] [--json]\n' +
  'Explores with LIFT_MODEL (LIFT_BASE_URL for OpenAI-compatible endpoints), or with --script FILE (a scripted explorer),\n' +
  'or serves the four tools over MCP on stdio with --mcp.';

/** The model explorer for LIFT_MODEL, or undefined when no model is configured. Only the CLI reads the environment. */
export function modelExplorerFromEnv(env: CliIo['env'], secrets: SecretStore): ModelExplorer | undefined {
  const model = env.LIFT_MODEL;
  if (!model) return undefined;
  return new ModelExplorer({
    client: modelClientFor({ model, baseURL: env.LIFT_BASE_URL, hedgeSeconds: 0 }, secrets, env),
  });
}

export const DISCOVERY_OPTIONS = {
  url: { type: 'string', value: 'URL', description: 'the page the task starts on' },
  policy: {
    type: 'string',
    value: 'FILE',
    description: 'the UI policy (YAML): allowed origins, paths, actions',
  },
  task: { type: 'string', value: 'TEXT', description: 'what to do, in words' },
  name: { type: 'string', value: 'NAME', description: "the capability's name (default: from the task)" },
  input: {
    type: 'string',
    multiple: true,
    value: 'name[:type]=value',
    description: 'an input and the value to explore with (repeatable)',
  },
  output: {
    type: 'string',
    multiple: true,
    value: 'name:type',
    description: 'an output to read (repeatable)',
  },
  hide: {
    type: 'string',
    multiple: true,
    value: 'COLUMN',
    description: 'a column the explorer never sees (repeatable)',
  },
  ...SIGN_IN_OPTIONS,
  ...BROWSER_OPTIONS,
  json: { type: 'boolean', default: false, description: 'print JSON instead of text' },
} as const;

export const spec = defineCommand({
  name: 'discover',
  summary: 'one exploration through the four explorer tools, compiled into a capability',
  options: {
    ...DISCOVERY_OPTIONS,
    script: {
      type: 'string',
      value: 'FILE',
      description: 'explore with a scripted explorer (a JSON list of tool calls)',
    },
    mcp: {
      type: 'boolean',
      default: false,
      description: 'serve the four explorer tools over MCP on stdio instead',
    },
  },
  examples: [
    'lift discover --url http://127.0.0.1:8080/members --policy policy.yaml --task "look up a member\'s savings balance" --input memberId=M-1001 --output savingsBalance:number --script explore.json',
    'LIFT_MODEL=openai:gpt-4.1-mini lift discover --url http://127.0.0.1:8080/members --policy policy.yaml --task "look up a member" --input memberId=M-1001 --output name:string',
  ],
  notes:
    'Explores with LIFT_MODEL (LIFT_BASE_URL for OpenAI-compatible endpoints), with --script FILE, or with any MCP client (--mcp).',
});

function taskName(text: string): string {
  const words = text
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 0 && !['a', 'an', 'the', 'and', 'of', 'to', 'for'].includes(word))
    .slice(0, 4);
  return words.length >= 2 ? words.join('_') : `${words[0] ?? 'task'}_capability`;
}

/** Builds a discovery task from the command line's --url --task --input --output --name. */
export function taskFromArgs(values: {
  url?: string | undefined;
  task?: string | undefined;
  name?: string | undefined;
  input?: string[] | undefined;
  output?: string[] | undefined;
}): DiscoveryTask {
  if (!values.url || !values.task) throw new UsageError(USAGE);
  const inputs: InputSpec[] = [];
  const bound: Record<string, string> = {};
  for (const entry of values.input ?? []) {
    const match = /^([A-Za-z][A-Za-z0-9_]*)(?::(string|number|integer|boolean))?=(.*)$/s.exec(entry);
    if (!match) throw new UsageError(`--input takes name=value (or name:type=value), not '${entry}'.`);
    inputs.push({ name: match[1]!, type: (match[2] as FieldType | undefined) ?? 'string' });
    bound[match[1]!] = match[3]!;
  }
  const outputs: OutputSpec[] = [];
  for (const entry of values.output ?? []) {
    const [name, type = 'string'] = entry.split(':');
    if (
      !name ||
      !/^[A-Za-z][A-Za-z0-9_]*$/.test(name) ||
      !(FIELD_TYPES as readonly string[]).includes(type)
    ) {
      throw new UsageError(`--output takes name:type with type ${FIELD_TYPES.join('|')}, not '${entry}'.`);
    }
    outputs.push({ name, type: type as FieldType });
  }
  if (inputs.length === 0 || outputs.length === 0)
    throw new UsageError(`At least one --input and one --output.\n${USAGE}`);
  return {
    name: values.name ?? taskName(values.task),
    intent: values.task,
    inputs,
    outputs,
    bound,
    startUrl: values.url,
  };
}

/** lift discover: one discovery session to its end, with a model, a script, or (--mcp) any MCP client. */
export const run: Command = async (args, io) => {
  const { values } = parse(args, spec);
  if (!values.policy) throw new UsageError(USAGE);
  const task = taskFromArgs(values);
  const policy = loadPolicy(values.policy);
  if (values.mcp) {
    const { serveDiscoveryOverMcp } = await import('../../discover/explorers/mcp.js');
    const runtime = await openRuntime(io);
    try {
      await serveDiscoveryOverMcp({
        runtime,
        task,
        policy,
        hidden: values.hide ?? [],
        signIn: signInFrom(values, io.cwd, runtime.store.secrets),
        browser: browserFrom(values, io.cwd),
      });
      return 0;
    } finally {
      await runtime.close();
    }
  }
  const runtime = await openRuntime(io);
  try {
    let explorer: Explorer | undefined;
    if (values.script) explorer = ScriptedExplorer.fromFile(values.script);
    else explorer = modelExplorerFromEnv(io.env, runtime.store.secrets);
    if (!explorer)
      throw new UsageError(`No explorer: set LIFT_MODEL, pass --script FILE, or use --mcp.\n${USAGE}`);
    if (!values.json)
      io.out(
        `lift discover: ${explorer.kind === 'model' ? `model explorer ${explorer.model}` : `${explorer.kind} explorer`}`,
      );
    const lease = await openExplorationPage(runtime, task.startUrl, policy, browserFrom(values, io.cwd));
    try {
      const signIn = signInFrom(values, io.cwd, runtime.store.secrets);
      const result = await runDiscovery({
        store: runtime.store,
        capabilities: new CapabilityStore(runtime.store.capabilities),
        page: lease.page,
        policy,
        task,
        explorer,
        hidden: values.hide ?? [],
        ...(signIn ? { signIn } : {}),
        saveProfile: lease.save,
        liftVersion: LIFT_VERSION,
      });
      if (values.json)
        printJson(io, { ...result, capability: undefined, steps: result.capability?.steps.length });
      else {
        io.out(
          `outcome ${result.status.outcome}${result.status.reason ? ` (${result.status.reason})` : ''}; ${result.status.steps} tool calls, ${result.status.rejected} rejected, run ${result.runId}`,
        );
        if (result.revision)
          io.out(
            `capability ${task.name} revision ${result.revision} (${result.capability?.steps.length} steps): lift capabilities show ${result.revision.slice(0, 12)}`,
          );
      }
      return result.status.outcome === 'completed' ? 0 : 1;
    } finally {
      await lease.release();
    }
  } finally {
    await runtime.close();
  }
};

/** The session's sign-in from --sign-in FILE or --user/--secret; its secrets read from the store when typed. */
export function signInFrom(
  values: { user?: string | undefined; secret?: string | undefined; 'sign-in'?: string | undefined },
  cwd: string,
  secrets: SecretStore,
): DiscoverySignIn | undefined {
  const recipe = recipeFromFlags(values, cwd, secrets);
  return recipe ? { recipe, secret: (name) => secrets.get(name) } : undefined;
}
