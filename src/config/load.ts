import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { AnyTool } from '../contract/define-tool.js';
import { GATES } from '../contract/effects.js';

/** A tool family's name, as lift serve --caps, serve.caps and settings.<family> name it. */
const FamilyName = z.string().regex(/^[a-z][a-z0-9_-]*$/, 'a tool family name such as office');

/**
 * lift.config.json (or .ts, .mjs, .js): what the operator decides. Every key's description is
 * the reference: docs/config.md and docs/lift.config.schema.json are generated from it
 * (npm run docs:config), and the settings of each family are described where they are read.
 */
export const ConfigSchema = z.strictObject({
  $schema: z
    .string()
    .optional()
    .describe(
      "The JSON Schema an editor checks this file against and completes it from: Lift's docs/lift.config.schema.json (in the installed package, node_modules/lift/docs/lift.config.schema.json). Lift itself ignores it.",
    ),
  tools: z
    .array(z.string())
    .default([])
    .describe(
      'Modules whose exported tools (defineTool) join the built-in ones, as paths relative to the config file.',
    ),
  settings: z
    .record(FamilyName, z.record(z.string(), z.unknown()))
    .default({})
    .describe(
      'Settings of the built-in tool families, by family name: `{ "payroll": { "root": "/srv/payroll" } }`. A family that needs settings is served only once they are here; each family reads its own (the runtime service `settings:NAME`).',
    ),
  roots: z
    .array(z.string().min(1).max(4_096))
    .max(100)
    .optional()
    .describe(
      "The folders path tools may reach unless their family has roots of its own (`settings.<family>.roots`), relative to the config file. An MCP client's roots come before them for its calls; `--root`, then the working folder (when it is not `/`, a system folder or the whole home) come after.",
    ),
  apis: z
    .array(z.string())
    .default([])
    .describe('API tool files written by `lift api import`, relative to the config file.'),
  home: z
    .string()
    .optional()
    .describe(
      'The folder where Lift keeps its state (runs, approvals, capabilities, secrets); LIFT_HOME overrides it.',
    ),
  shortlist: z
    .unknown()
    .optional()
    .describe("Groups and signals that choose which tools the agent's model is offered for a request."),
  store: z
    .strictObject({
      postgres: z
        .string()
        .regex(/^postgres(ql)?:\/\/\S+$/, 'a postgres:// URL')
        .max(2_000)
        .describe('postgres://USER:PASSWORD@HOST:PORT/DB of the shared database.'),
    })
    .optional()
    .describe(
      'Where the shared records live: absent for the embedded SQLite store in the home, or a PostgreSQL database for many workers on many hosts (lift worker, lift call --queue). LIFT_POSTGRES_URL overrides it.',
    ),
  elicitation: z
    .strictObject({
      signature: z
        .array(z.string().min(1).max(200))
        .max(1_000)
        .default([])
        .describe(
          'Tools whose signature gate an MCP client may answer by asking its person; `"*"`: every tool.',
        ),
    })
    .default({ signature: [] })
    .describe(
      "Which held calls an MCP client may answer itself, by asking its person (elicitation). The client is the agent's own, so by default it answers review gates only: a signature needs the console or lift approve.",
    ),
  serve: z
    .strictObject({
      caps: z
        .array(FamilyName)
        .min(1)
        .max(100)
        .optional()
        .describe(
          'The tool families lift serve lists, as `--caps` names them (`["office", "ui", "desktop"]`); absent, every family that is configured or needs no configuration. `--caps` on the command line replaces it.',
        ),
    })
    .default({})
    .describe('What `lift serve` offers an MCP client.'),
  gates: z
    .record(z.string(), z.enum(GATES))
    .default({})
    .describe(
      "Gate overrides by tool name, decided by the operator, never by the model: `none` runs at once, `log` runs and records the call, `review` holds it for a person's approval, `signature` holds it for an approval that types a confirmation phrase. Without one, a tool's effect class decides (read: none, reversible: log, visible: review, irreversible: signature).",
    ),
});
export type LiftConfig = z.infer<typeof ConfigSchema> & { file: string | undefined; root: string };

const FILES = ['lift.config.json', 'lift.config.ts', 'lift.config.mjs', 'lift.config.js'];

/** Finds and validates lift.config.* in `cwd`. The only place besides the command line that reads the environment. */
export async function loadConfig(cwd: string, env: Record<string, string | undefined>): Promise<LiftConfig> {
  const file = FILES.map((name) => join(cwd, name)).find((candidate) => existsSync(candidate));
  let raw: unknown = {};
  if (file?.endsWith('.json')) raw = JSON.parse(readFileSync(file, 'utf8'));
  else if (file) raw = ((await importModule(file)) as { default?: unknown }).default ?? {};
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  const config = { ...parsed.data, file, root: cwd };
  if (env.LIFT_HOME) config.home = env.LIFT_HOME;
  if (env.LIFT_POSTGRES_URL) config.store = { postgres: env.LIFT_POSTGRES_URL };
  return config;
}

export async function importModule(path: string): Promise<unknown> {
  if (path.endsWith('.ts')) {
    const { tsImport } = await import('tsx/esm/api');
    return tsImport(pathToFileURL(path).href, import.meta.url);
  }
  return import(pathToFileURL(path).href);
}

export function toolsFrom(module: unknown): AnyTool[] {
  const exports = module as Record<string, unknown>;
  const candidates = [exports.tools, exports.default].find((value) => Array.isArray(value));
  if (candidates) return candidates as AnyTool[];
  return Object.values(exports).filter(
    (value): value is AnyTool =>
      typeof value === 'object' && value !== null && 'run' in value && 'input' in value,
  );
}

/** Loads the tools the config names. */
export async function loadConfiguredTools(config: LiftConfig): Promise<AnyTool[]> {
  const tools: AnyTool[] = [];
  for (const entry of config.tools) {
    const path = isAbsolute(entry) ? entry : resolve(config.root, entry);
    tools.push(...toolsFrom(await importModule(path)));
  }
  return tools;
}
