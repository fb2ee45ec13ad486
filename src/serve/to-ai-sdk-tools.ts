import { jsonSchema, tool } from '@ai-sdk/provider-utils';
import type { ToolSet } from 'ai';
import type { AnyTool } from '../contract/define-tool.js';
import type { Envelope } from '../contract/envelope.js';
import type { Runtime } from '../runtime/runtime.js';
import { fromOpenAiArguments, toOpenAiArguments } from './openai-arguments.js';
import { toolInputSchema } from './to-json-schema.js';
import { openAiStrictSchema } from './to-openai-tools.js';

export interface AiSdkToolsOptions {
  /** Only these tools (default: every tool the runtime has registered now). */
  names?: readonly string[];
}

type JsonSchemaInput = Parameters<typeof jsonSchema>[0];

function aiSdkTool(runtime: Runtime, lifted: AnyTool) {
  const strict = openAiStrictSchema(lifted);
  const schema = strict.strict ? strict.schema : toolInputSchema(lifted);
  return tool<unknown, Envelope>({
    description: lifted.description,
    ...(lifted.title ? { title: lifted.title } : {}),
    inputSchema: jsonSchema<unknown>(schema as JsonSchemaInput),
    strict: strict.strict,
    inputExamples: [{ input: strict.strict ? toOpenAiArguments(lifted, lifted.example) : lifted.example }],
    // Through invoke like every other door: validation, ledger, gate (a held call answers with
    // the pending envelope, which the model reads), deadline, verify, cap, scrubbing, run log.
    execute: (input, { abortSignal }) =>
      runtime.invoke(
        lifted.name,
        strict.strict ? fromOpenAiArguments(lifted, input) : input,
        abortSignal ? { signal: abortSignal } : {},
      ),
  });
}

/**
 * The runtime's tools as AI SDK tools, for `generateText` / `streamText` with any provider.
 * Each is sent in OpenAI's strict form (the model's arguments are read back before `invoke`),
 * and its `execute` returns Lift's envelope.
 */
export function toAiSdkTools(runtime: Runtime, options: AiSdkToolsOptions = {}): ToolSet {
  const wanted = options.names ? new Set(options.names) : undefined;
  const set: ToolSet = {};
  for (const lifted of runtime.registry.list()) {
    if (!wanted || wanted.has(lifted.name)) set[lifted.name] = aiSdkTool(runtime, lifted);
  }
  return set;
}
