import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { parseYaml } from '../config/yaml.js';
import { EFFECT_CLASSES, RUNGS } from '../contract/effects.js';

/**
 * What a person declares about one operation: its effect, the fields a read must parse
 * into, the read that verifies a write, and every door it might go through (its candidate
 * rungs). The ladder walk decides which door it uses; the declaration never does.
 */
const NAME = z.string().regex(/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/, 'snake_case, at least two words');

const Common = {
  /** Something only a person can supply on this door (a second factor, a captcha): fails "unattended". */
  needs_person: z.string().max(200).optional(),
  /** Secrets this door needs besides the ones its tool or API file names. */
  secrets: z
    .array(z.string().regex(/^[a-z][a-z0-9_]*$/))
    .max(10)
    .default([]),
  /** The tool that carries the operation on this door, when its name differs from the operation's. */
  tool: NAME.optional(),
};

export const ApiCandidateSchema = z.strictObject({
  rung: z.literal('api'),
  /** The OpenAPI description, relative to the declaration file. */
  spec: z.string().min(1),
  operation_id: z.string().min(1),
  /** A reviewed tool file (lift api import) to use instead of importing the operation afresh. */
  tool_file: z.string().min(1).optional(),
  base_url: z.string().url().optional(),
  /** For reads: an input to call the operation with, so "readable back" is a real parse. */
  probe: z.record(z.string(), z.unknown()).optional(),
  ...Common,
});

export const CapabilityCandidateSchema = z.strictObject({
  rung: z.enum(['script', 'ui']),
  /** A compiled capability (lift capabilities list), by name. */
  capability: z.string().min(1).max(200),
  ...Common,
});

export const ToolCandidateSchema = z.strictObject({
  rung: z.enum(RUNGS),
  /** A registered tool on this rung (command line, file exchange, ...). */
  tool: NAME,
  needs_person: Common.needs_person,
  secrets: Common.secrets,
});

export const CandidateSchema = z.union([ApiCandidateSchema, CapabilityCandidateSchema, ToolCandidateSchema]);
export type Candidate = z.infer<typeof CandidateSchema>;
export type ApiCandidate = z.infer<typeof ApiCandidateSchema>;
export type CapabilityCandidate = z.infer<typeof CapabilityCandidateSchema>;

export const OperationSchema = z.strictObject({
  name: NAME,
  description: z.string().min(1).max(500),
  /** The system the operation belongs to (its owner decides whether an API can be asked for). */
  system: z.string().min(1).max(100),
  effect: z.enum(EFFECT_CLASSES),
  /** Reads: the fields the output must parse into. */
  fields: z.array(z.string().min(1)).max(40).default([]),
  /** Writes: the operation whose read verifies the effect. */
  read_back: NAME.optional(),
  candidates: z.array(CandidateSchema).min(1).max(6),
  /** Failures of one code on the current door above this count propose a step down. */
  step_down_after: z.number().int().min(1).max(100).default(1),
});
export type Operation = z.infer<typeof OperationSchema>;

export const DeclarationFileSchema = z.strictObject({
  /** Systems by name; `own: true` marks a system the user's organisation owns. */
  systems: z.record(z.string(), z.strictObject({ own: z.boolean() })).default({}),
  operations: z.array(OperationSchema).min(1),
});
export type DeclarationFile = z.infer<typeof DeclarationFileSchema>;

/** A declared operation with its paths made absolute and its system's ownership resolved. */
export interface DeclaredOperation extends Operation {
  own: boolean;
}

export function candidateLabel(candidate: Candidate): string {
  if ('operation_id' in candidate) return `${candidate.rung} ${candidate.operation_id}`;
  if ('capability' in candidate) return `${candidate.rung} capability ${candidate.capability}`;
  return `${candidate.rung} tool ${candidate.tool}`;
}

function absolute(base: string, path: string): string {
  return isAbsolute(path) ? path : resolve(base, path);
}

export function parseDeclarations(raw: unknown, source: string): DeclaredOperation[] {
  const parsed = DeclarationFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(`${source}: not a valid operations file.\n${z.prettifyError(parsed.error)}`);
  const base = dirname(resolve(source));
  const operations = parsed.data.operations.map((operation) => {
    for (const candidate of operation.candidates) {
      if ('spec' in candidate) {
        candidate.spec = absolute(base, candidate.spec);
        if (candidate.tool_file) candidate.tool_file = absolute(base, candidate.tool_file);
      }
    }
    return { ...operation, own: parsed.data.systems[operation.system]?.own ?? false };
  });
  const names = operations.map((operation) => operation.name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice) throw new Error(`${source}: operation '${twice}' is declared twice.`);
  for (const operation of operations) {
    if (operation.effect !== 'read' && !operation.read_back) {
      throw new Error(
        `${source}: '${operation.name}' is a write, so it needs read_back (the operation that verifies it).`,
      );
    }
  }
  return operations;
}

export function readDeclarations(file: string): DeclaredOperation[] {
  const text = readFileSync(file, 'utf8');
  return parseDeclarations(file.endsWith('.json') ? JSON.parse(text) : parseYaml(text), file);
}
