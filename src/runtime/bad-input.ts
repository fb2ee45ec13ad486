import { z } from 'zod';
import type { AnyTool } from '../contract/define-tool.js';
import { LiftError } from '../contract/errors.js';

const strictCache = new WeakMap<z.ZodType, z.ZodType>();

/** Object inputs are validated strictly: an unknown field is a mistake, not something to ignore. */
function strictSchema(schema: z.ZodType): z.ZodType {
  const cached = strictCache.get(schema);
  if (cached) return cached;
  const strict = schema instanceof z.ZodObject ? schema.strict() : schema;
  strictCache.set(schema, strict);
  return strict;
}

export function exampleCall(tool: AnyTool): string {
  return JSON.stringify({ tool: tool.name, input: tool.example ?? '…' });
}

/** Validates input before anything touches the system; a failure names the fields and shows a correct call. */
export function validateInput(tool: AnyTool, input: unknown): unknown {
  const parsed = strictSchema(tool.input).safeParse(input);
  if (parsed.success) return parsed.data;
  const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(input)'))];
  throw new LiftError(
    'BAD_INPUT',
    `Invalid input for ${tool.name}: ${fields.join(', ')}.\n${z.prettifyError(parsed.error)}`,
    {
      hint: `Fix ${fields.join(', ')} and call again. A correct call: ${exampleCall(tool)}. Nothing was sent to the system.`,
      outcome: 'not_started',
      details: {
        fields,
        issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
      },
    },
  );
}
