import type { AnyTool } from '../contract/define-tool.js';
import { inputPropertyNames } from './to-json-schema.js';

/** MCP tool annotations. Every hint is set explicitly: MCP's defaults assume the worst. */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
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

/**
 * The hints follow the contract's effect: a read is read-only; an irreversible effect is
 * destructive; a request-id repeat key makes a write idempotent; effects that reach people
 * or systems outside the tool's own record (visible, irreversible) are open-world.
 */
export function toolAnnotations(tool: AnyTool): ToolAnnotations {
  const effect = tool.effect.class;
  return {
    title: titleOf(tool),
    readOnlyHint: effect === 'read',
    destructiveHint: effect === 'irreversible',
    idempotentHint: hasRequestIdKey(tool),
    openWorldHint: effect === 'visible' || effect === 'irreversible',
  };
}
