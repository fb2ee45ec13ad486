import { type EffectHints, effectHints } from '../contract/annotations.js';
import type { AnyTool } from '../contract/define-tool.js';
import { inputPropertyNames } from './to-json-schema.js';

/** MCP tool annotations: a title and the four hints of the tool's effect. */
export interface ToolAnnotations extends EffectHints {
  title: string;
}

/** ticket_close_with_note -> "Ticket close with note", when the contract names no title. */
export function titleOf(tool: AnyTool): string {
  if (tool.title) return tool.title;
  const words = tool.name.replaceAll('_', ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/** Whether two calls with the same `request_id` are the same call (the ledger's repeat key). */
export function hasRequestIdKey(tool: AnyTool): boolean {
  return inputPropertyNames(tool).includes('request_id');
}

/** The hints follow the contract's effect class and its repeat key (contract/annotations.ts). */
export function toolAnnotations(tool: AnyTool): ToolAnnotations {
  return { title: titleOf(tool), ...effectHints(tool.effect.class, hasRequestIdKey(tool)) };
}
