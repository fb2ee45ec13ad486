import { z } from 'zod';
import { actTool } from './tools/act.js';
import { completeTool } from './tools/complete.js';
import { observeTool } from './tools/observe.js';
import { requestHandoffTool } from './tools/request-handoff.js';
import { type AnyExplorerTool, EXPLORER_TOOL_NAMES, type ExplorerToolName } from './tools/tool.js';

export type { ActArgs } from './tools/act.js';
export type { CompleteArgs } from './tools/complete.js';
export type { ObserveArgs } from './tools/observe.js';
export type { HandoffArgs } from './tools/request-handoff.js';
export {
  type AnyExplorerTool,
  EXPLORER_TOOL_NAMES,
  type ExplorerAnswer,
  type ExplorerTool,
  type ExplorerToolName,
  explorerAnnotations,
} from './tools/tool.js';

/**
 * The four application tools an explorer gets, and nothing else. The model explorer, the
 * MCP explorer, the step-by-step command line and the scripted explorer all call these.
 */
export const EXPLORER_TOOLS: Readonly<Record<ExplorerToolName, AnyExplorerTool>> = Object.freeze({
  observe: observeTool,
  act: actTool,
  request_handoff: requestHandoffTool,
  complete: completeTool,
});

export function isExplorerTool(name: string): name is ExplorerToolName {
  return (EXPLORER_TOOL_NAMES as readonly string[]).includes(name);
}

/** JSON Schema of each tool's arguments, for the model and MCP explorers. */
export function explorerToolJsonSchema(name: ExplorerToolName): Record<string, unknown> {
  return z.toJSONSchema(EXPLORER_TOOLS[name].input, { io: 'input' }) as Record<string, unknown>;
}
