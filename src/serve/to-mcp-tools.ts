import type { AnyTool } from '../contract/define-tool.js';
import type { JsonSchema } from '../contract/json-schema.js';
import { type ToolAnnotations, titleOf, toolAnnotations } from './annotations.js';
import { type ObjectJsonSchema, toolEnvelopeSchema, toolInputSchema } from './to-json-schema.js';

/** A tool as MCP's tools/list returns it. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectJsonSchema;
  /** The envelope, whose `fields` follow the tool's output schema; it is the call's structuredContent. */
  outputSchema: JsonSchema & { type: 'object' };
  annotations: ToolAnnotations;
}

const cache = new WeakMap<AnyTool, McpTool>();

/** Derived once per tool: definitions are frozen, so the listing cannot drift from them. */
export function toMcpTool(tool: AnyTool): McpTool {
  let listed = cache.get(tool);
  if (!listed) {
    listed = {
      name: tool.name,
      title: titleOf(tool),
      description: tool.description,
      inputSchema: toolInputSchema(tool),
      outputSchema: toolEnvelopeSchema(tool),
      annotations: toolAnnotations(tool),
    };
    cache.set(tool, listed);
  }
  return listed;
}

export function toMcpTools(tools: readonly AnyTool[]): McpTool[] {
  return tools.map(toMcpTool);
}
