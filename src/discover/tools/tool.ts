import type { z } from 'zod';
import { type EffectHints, effectHints } from '../../contract/annotations.js';
import type { EffectClass } from '../../contract/effects.js';
import type { ExplorerContext } from '../explorer-context.js';

export const EXPLORER_TOOL_NAMES = ['observe', 'act', 'request_handoff', 'complete'] as const;
export type ExplorerToolName = (typeof EXPLORER_TOOL_NAMES)[number];

/** What a tool answers an explorer: JSON, redacted, never a bound or read value. */
export type ExplorerAnswer = Record<string, unknown>;

/**
 * One explorer tool, declared as every Lift tool is: its name, description, strict input,
 * an example of a correct call, the effect its MCP annotations are derived from, and the
 * handler. A handler returns its answer or throws a LiftError; the session turns either
 * into the explorer's reply in one place (DiscoverySession.call).
 */
export interface ExplorerTool<I extends z.ZodObject = z.ZodObject> {
  readonly name: ExplorerToolName;
  readonly title: string;
  readonly description: string;
  readonly input: I;
  readonly example: z.input<I>;
  /** What a call does to the application or to Lift; the MCP hints follow from it. */
  readonly effect: EffectClass;
  /** The same call twice does it once (complete: a capability is stored by its content). */
  readonly idempotent: boolean;
  handle(context: ExplorerContext, args: z.infer<I>): Promise<ExplorerAnswer>;
}

// biome-ignore lint/suspicious/noExplicitAny: the list holds tools of every input type
export type AnyExplorerTool = ExplorerTool<any>;

export function defineExplorerTool<I extends z.ZodObject>(tool: ExplorerTool<I>): ExplorerTool<I> {
  return Object.freeze(tool);
}

/** MCP annotations of an explorer tool, derived from its declaration as every tool's are. */
export function explorerAnnotations(tool: AnyExplorerTool): EffectHints & { title: string } {
  return { title: tool.title, ...effectHints(tool.effect, tool.idempotent) };
}
