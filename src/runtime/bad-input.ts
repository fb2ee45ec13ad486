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

/**
 * How deep an input may nest. Real inputs nest a few levels (an API body, a chain step's
 * args); thousands of levels overflow the stack of whatever walks them next (the schema, the
 * ledger's hash, JSON.stringify), which answered INTERNAL_ERROR or a bare JSON-RPC error.
 */
export const MAX_INPUT_DEPTH = 100;

/** Where the input first nests deeper than MAX_INPUT_DEPTH (its path), walked without recursion. */
export function tooDeepAt(input: unknown): Array<string | number> | undefined {
  const stack: Array<{ value: unknown; path: Array<string | number> }> = [{ value: input, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: Array<string | number> };
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= MAX_INPUT_DEPTH) return path;
    const entries = Array.isArray(value)
      ? value.map((item, index) => [index, item] as const)
      : Object.entries(value);
    for (const [key, item] of entries) stack.push({ value: item, path: [...path, key] });
  }
  return undefined;
}

function tooDeep(tool: AnyTool, path: Array<string | number>): LiftError {
  const field = path.slice(0, 3).join('.') || '(input)';
  return new LiftError(
    'BAD_INPUT',
    `Invalid input for ${tool.name}: ${field} nests more than ${MAX_INPUT_DEPTH} levels deep.`,
    {
      hint: `Send a flatter value. A correct call: ${exampleCall(tool)}. Nothing was sent to the system.`,
      outcome: 'not_started',
      details: { fields: [field] },
    },
  );
}

/** Validates input before anything touches the system; a failure names the fields and shows a correct call. */
export function validateInput(tool: AnyTool, input: unknown): unknown {
  const deep = tooDeepAt(input);
  if (deep) throw tooDeep(tool, deep);
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
