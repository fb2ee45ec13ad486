import type { AnyTool } from '../contract/define-tool.js';
import { gateOf } from '../contract/define-tool.js';
import { inputSchemaOf, type JsonSchema } from '../contract/json-schema.js';

/** A tool as the linter sees it, whatever format it came in. */
export interface LintTarget {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** What the source format says about effects (MCP annotations, or a Lift contract). */
  readOnly?: boolean;
  destructive?: boolean;
  /** Only a Lift contract carries these. */
  lift?: {
    effectClass: AnyTool['effect']['class'];
    rung: AnyTool['rung'];
    holdsForPerson: boolean;
    errorHints: boolean;
    deadlineMs: number;
    /** Whether the tool declares the paths its input names (defineTool `paths`). */
    declaresPaths: boolean;
  };
}

export function fromLiftTool(tool: AnyTool): LintTarget {
  const gate = gateOf(tool);
  return {
    name: tool.name,
    description: tool.description,
    parameters: inputSchemaOf(tool),
    readOnly: tool.effect.class === 'read',
    destructive: tool.effect.class === 'irreversible',
    lift: {
      effectClass: tool.effect.class,
      rung: tool.rung,
      holdsForPerson: gate === 'review' || gate === 'signature',
      errorHints: Object.values(tool.errors ?? {}).every((spec) => Boolean(spec?.hint)),
      deadlineMs: tool.timeout.deadlineMs,
      declaresPaths: tool.paths !== undefined,
    },
  };
}

type Loose = Record<string, unknown>;

function asObject(value: unknown): Loose | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : undefined;
}

/** One entry of an OpenAI, Anthropic or MCP tool list, recognised by its shape. */
function fromJsonEntry(entry: unknown): LintTarget {
  const object = asObject(entry);
  if (!object) throw new Error('A tool entry must be an object.');
  const fn = asObject(object.function);
  const source = fn ?? object; // OpenAI chat: { type: 'function', function: {...} }
  const name = source.name;
  if (typeof name !== 'string') throw new Error('A tool entry has no name.');
  const parameters = (source.parameters ?? source.input_schema ?? source.inputSchema ?? {}) as JsonSchema;
  const annotations = asObject(source.annotations);
  const target: LintTarget = {
    name,
    description: typeof source.description === 'string' ? source.description : '',
    parameters,
  };
  if (typeof annotations?.readOnlyHint === 'boolean') target.readOnly = annotations.readOnlyHint;
  if (typeof annotations?.destructiveHint === 'boolean') target.destructive = annotations.destructiveHint;
  return target;
}

/** Accepts a bare array, `{ tools: [...] }` (MCP tools/list, many configs), or a single tool. */
export function fromJsonToolList(document: unknown): LintTarget[] {
  const object = asObject(document);
  const list = Array.isArray(document)
    ? document
    : Array.isArray(object?.tools)
      ? (object.tools as unknown[])
      : [document];
  return list.map(fromJsonEntry);
}
