import { isBuiltIn } from '../builtin.js';
import type { LiftConfig } from '../config/load.js';
import type { AnyTool } from '../contract/define-tool.js';
import { BUILTIN_FAMILIES, familyNames, familyOf, type Unconfigured, unconfigured } from '../families.js';
import type { Runtime } from '../runtime/runtime.js';
import { UsageError } from './args.js';
import type { OptionSpec } from './spec.js';

/** `--caps FAMILY,...`, on lift serve and lift tools list: the families served. */
export const CAPS_OPTION = {
  type: 'string',
  multiple: true,
  default: [],
  value: 'FAMILY,...',
  description: `serve only these tool families (comma-separated or repeated; replaces lift.config serve.caps): ${BUILTIN_FAMILIES.join(', ')}, or a tools module's group`,
} as const satisfies OptionSpec;

/** The families the operator chose for lift serve, and where they were chosen. */
export interface Caps {
  families: readonly string[];
  from: '--caps' | 'serve.caps';
}

/**
 * `--caps office,ui --caps desktop`, else lift.config `serve.caps`, else undefined: every family
 * that is configured or needs no configuration.
 */
export function capsOf(flags: readonly string[], config: Pick<LiftConfig, 'serve'>): Caps | undefined {
  if (flags.length > 0) {
    const families = flags.flatMap((flag) => flag.split(',')).map((name) => name.trim());
    if (families.every((name) => name === ''))
      throw new UsageError(`--caps names no family. Families: ${BUILTIN_FAMILIES.join(', ')}.`);
    return { families: [...new Set(families.filter(Boolean))], from: '--caps' };
  }
  const chosen = config.serve.caps;
  return chosen ? { families: [...new Set(chosen)], from: 'serve.caps' } : undefined;
}

/** A family's tools lift serve does not list, and why. */
export interface HiddenFamily extends Unconfigured {
  family: string;
  tools: string[];
}

/**
 * Which registered tools lift serve lists: those of the chosen families (all, without caps)
 * whose family is configured or needs no configuration. Tools an operator's module built are
 * configured by being there. Checks run once per family.
 */
export class ServedTools {
  readonly #runtime: Runtime;
  readonly #config: Pick<LiftConfig, 'settings'>;
  readonly caps: Caps | undefined;
  readonly #checked = new Map<string, Unconfigured | undefined>();

  constructor(runtime: Runtime, config: Pick<LiftConfig, 'settings'>, caps: Caps | undefined) {
    this.#runtime = runtime;
    this.#config = config;
    this.caps = caps;
  }

  /** Why lift serve does not list this tool, with what enables it; undefined when it lists it. */
  hiddenBecause(tool: AnyTool): Unconfigured | undefined {
    const family = familyOf(tool);
    const missing = isBuiltIn(tool) ? this.#unconfigured(family) : undefined;
    const caps = this.caps;
    if (!caps || caps.families.includes(family))
      return missing && { reason: `not configured: ${missing.reason}`, enable: missing.enable };
    const where = caps.from === '--caps' ? '--caps' : 'serve.caps in lift.config';
    const left = {
      reason: `not in ${caps.from} (${caps.families.join(', ')})`,
      enable: `add ${family} to ${where}`,
    };
    if (!missing) return left;
    return {
      reason: `${left.reason}, and not configured: ${missing.reason}`,
      enable: `${missing.enable}, and ${left.enable}`,
    };
  }

  /** The tools lift serve lists, in the order given. */
  shown(tools: readonly AnyTool[]): AnyTool[] {
    return tools.filter((tool) => !this.hiddenBecause(tool));
  }

  /** The hidden tools, by family and reason, families in name order. */
  hidden(tools: readonly AnyTool[]): HiddenFamily[] {
    const found = new Map<string, HiddenFamily>();
    for (const tool of tools) {
      const why = this.hiddenBecause(tool);
      if (!why) continue;
      const family = familyOf(tool);
      const key = `${family}\n${why.reason}`;
      const entry = found.get(key) ?? { family, tools: [], ...why };
      entry.tools.push(tool.name);
      found.set(key, entry);
    }
    return [...found.values()].sort((a, b) => (a.family < b.family ? -1 : a.family > b.family ? 1 : 0));
  }

  /** A usage error when the caps name a family that neither Lift nor the registered tools have. */
  checkCaps(tools: readonly AnyTool[]): void {
    const known = familyNames(tools);
    const unknown = (this.caps?.families ?? []).filter((name) => !known.includes(name));
    if (unknown.length === 0 || !this.caps) return;
    const named = unknown.map((name) => `'${name}'`).join(', ');
    throw new UsageError(
      `${this.caps.from} names ${named}, which ${unknown.length === 1 ? 'is no tool family' : 'are no tool families'}. Families: ${known.join(', ')}.`,
    );
  }

  /** Whether the caps name a family that only a loaded tool could make known. */
  needsToolsToCheck(): boolean {
    return (this.caps?.families ?? []).some((name) => !BUILTIN_FAMILIES.includes(name));
  }

  /** A line for each chosen family that serves nothing here: no tools, or not configured. */
  warnings(tools: readonly AnyTool[]): string[] {
    const lines: string[] = [];
    for (const family of this.caps?.families ?? []) {
      const own = tools.filter((tool) => familyOf(tool) === family);
      if (own.length === 0) {
        lines.push(`${this.caps?.from} names ${family}, which has no tools here.`);
        continue;
      }
      const missing = own.every((tool) => this.hiddenBecause(tool)) ? this.#unconfigured(family) : undefined;
      if (missing)
        lines.push(
          `${this.caps?.from} names ${family}, which is not configured (${missing.reason}); its tools are not served. To serve them: ${missing.enable}.`,
        );
    }
    return lines;
  }

  #unconfigured(family: string): Unconfigured | undefined {
    if (!this.#checked.has(family)) {
      const secrets = this.#runtime.store.secrets;
      this.#checked.set(
        family,
        unconfigured(family, { settings: this.#config.settings, hasSecret: (name) => secrets.has(name) }),
      );
    }
    return this.#checked.get(family);
  }
}
