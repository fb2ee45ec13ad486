import { jsonSchema, type ToolSet } from 'ai';
import type { AnyTool } from '../contract/define-tool.js';
import { inputSchemaOf } from '../contract/json-schema.js';
import { estimateTokens } from '../model/tokens.js';

/** The schema text of one tool as a provider receives it (name, description, parameters). */
function schemaOf(tool: AnyTool) {
  const parameters = inputSchemaOf(tool);
  return {
    name: tool.name,
    description: tool.description,
    parameters: parameters.type === 'object' ? { additionalProperties: false, ...parameters } : parameters,
  };
}

/** Schema tokens of a tool list: what offering these tools adds to every model call. */
export function schemaTokens(tools: readonly AnyTool[]): number {
  return tools.reduce((sum, tool) => sum + estimateTokens(JSON.stringify(schemaOf(tool))), 0);
}

/**
 * The tools as the AI SDK sends them, derived from each defineTool (z.toJSONSchema of its input, via
 * contract/json-schema). No `execute`: every call goes back to the loop, which runs it through invoke.
 */
export function toToolSet(tools: readonly AnyTool[]): ToolSet {
  const set: ToolSet = {};
  for (const tool of tools) {
    const { description, parameters } = schemaOf(tool);
    set[tool.name] = { description, inputSchema: jsonSchema(parameters as Parameters<typeof jsonSchema>[0]) };
  }
  return set;
}
