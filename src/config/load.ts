import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { AnyTool } from '../contract/define-tool.js';

export const ConfigSchema = z.strictObject({
  /** Modules (paths relative to the config file) whose exported tools join the registry. */
  tools: z.array(z.string()).default([]),
  /**
   * Settings of built-in tool families, by name: `{ "payroll": { "root": "/srv/payroll" },
   * "hledger": { "journal": "books.journal" } }`. Registered as the runtime service
   * `settings:NAME` that those tools read.
   */
  settings: z.record(z.string().regex(/^[a-z][a-z0-9_-]*$/), z.record(z.string(), z.unknown())).default({}),
  /**
   * The folders path tools reach unless their family has roots of its own (paths relative to the
   * config file). An MCP client's roots come before them for its calls; `--root`, then the working
   * folder (when it is not `/`, a system folder or the whole home) come after.
   */
  roots: z.array(z.string().min(1).max(4_096)).max(100).optional(),
  /** API tool files written by `lift api import` (paths relative to the config file). */
  apis: z.array(z.string()).default([]),
  /** Where Lift keeps its state; LIFT_HOME overrides it. */
  home: z.string().optional(),
  /** Shortlist groups and signals for the agent (see agent/shortlist). */
  shortlist: z.unknown().optional(),
  /**
   * Where the shared records live: absent for the embedded SQLite store in the home, or
   * `{ "postgres": "postgres://USER:PASSWORD@HOST:PORT/DB" }` for many workers on many hosts
   * (lift worker, lift call --queue). LIFT_POSTGRES_URL overrides it.
   */
  store: z
    .strictObject({
      postgres: z
        .string()
        .regex(/^postgres(ql)?:\/\/\S+$/, 'a postgres:// URL')
        .max(2_000),
    })
    .optional(),
  /**
   * Which held calls an MCP client may answer itself, by asking its person (elicitation). The
   * client is the agent's own, so by default it answers review gates only: a signature needs
   * the console or lift approve, unless the operator names the tool here (`"*"`: every tool).
   */
  elicitation: z
    .strictObject({ signature: z.array(z.string().min(1).max(200)).max(1_000).default([]) })
    .default({ signature: [] }),
  /**
   * What `lift serve` offers. `caps`: the tool families it lists, as `--caps` names them
   * (`["office", "ui", "desktop"]`); absent, every family that is configured or needs no
   * configuration. `--caps` on the command line replaces it.
   */
  serve: z
    .strictObject({
      caps: z
        .array(z.string().regex(/^[a-z][a-z0-9_-]*$/, 'a tool family name such as office'))
        .min(1)
        .max(100)
        .optional(),
    })
    .default({}),
  /** Gate overrides by tool name, decided by the operator, never by the model. */
  gates: z.record(z.string(), z.enum(['none', 'log', 'review', 'signature'])).default({}),
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
