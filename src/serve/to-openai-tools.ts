import type { AnyTool } from '../contract/define-tool.js';
import { type StrictResult, strictForm } from './openai-strict.js';
import { type ObjectJsonSchema, toolInputSchema } from './to-json-schema.js';

export type { StrictResult } from './openai-strict.js';

/** A tool as OpenAI's Chat Completions `tools` array takes it. */
export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: ObjectJsonSchema; strict: boolean };
}

/**
 * The strict form of a tool's input, when OpenAI's strict mode can express it: every
 * property required (optional ones nullable), records as entries, free values as JSON text,
 * only the keywords strict mode accepts. Length bounds, defaults and unusual formats move into
 * descriptions (Lift still enforces them). Arguments come back through `fromOpenAiArguments`.
 */
export function openAiStrictSchema(tool: AnyTool): StrictResult {
  return strictForm(toolInputSchema(tool), tool.name);
}

export function toOpenAiTool(tool: AnyTool): OpenAiTool {
  const strict = openAiStrictSchema(tool);
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: strict.strict ? (strict.schema as ObjectJsonSchema) : toolInputSchema(tool),
      strict: strict.strict,
    },
  };
}

export function toOpenAiTools(tools: readonly AnyTool[]): OpenAiTool[] {
  return tools.map(toOpenAiTool);
}
