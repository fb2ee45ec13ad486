import type { AnyTool } from '../contract/define-tool.js';
import { type ObjectJsonSchema, toolInputSchema } from './to-json-schema.js';

/** A tool as Anthropic's Messages API `tools` array takes it. */
export interface AnthropicTool {
  name: string;
  description: string;
  /** Anthropic's rule: a JSON Schema whose root is `type: "object"`. */
  input_schema: ObjectJsonSchema;
}

const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function toAnthropicTool(tool: AnyTool): AnthropicTool {
  if (!ANTHROPIC_NAME.test(tool.name)) {
    throw new Error(
      `Tool '${tool.name}' cannot be exported to Anthropic: names are 1 to 64 letters, digits, '_' or '-'.`,
    );
  }
  return { name: tool.name, description: tool.description, input_schema: toolInputSchema(tool) };
}

export function toAnthropicTools(tools: readonly AnyTool[]): AnthropicTool[] {
  return tools.map(toAnthropicTool);
}
