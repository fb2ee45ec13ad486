import { z } from 'zod';
import { canonicalJson, sha256 } from '../../../runtime/canonical.js';

/**
 * A learned desktop skill: what one clean run on a window left behind, with named control
 * locators (never paths or pixels), typed placeholders for its inputs, and a final read.
 * Content-addressed like web capabilities: the revision is the SHA-256 of its canonical JSON.
 */
export const SKILL_SCHEMA_VERSION = 1;

const Name = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-zA-Z][a-zA-Z0-9_]*$/, 'letters, digits and underscores, starting with a letter');

export const SkillLocatorSchema = z.strictObject({
  role: z.string().min(1).max(40),
  name: z.string().max(200),
  id: z.string().min(1).max(200).optional(),
  nth: z.number().int().min(0).max(200),
});

/** Text with `{{input}}` placeholders, bound to the call's inputs at replay. */
const Template = z.string().max(2000);

const SkillExpectSchema = z.strictObject({
  target: SkillLocatorSchema.optional(),
  text_contains: Template.min(1),
});

const base = {
  version: z.literal(1),
  /** Whether the window changed after this step in the run: replay waits for a change only then. */
  changes: z.boolean(),
  expect: SkillExpectSchema.optional(),
};

/** The closed, versioned union of recorded desktop steps; replay switches over it exhaustively. */
export const SkillStepSchema = z.discriminatedUnion('op', [
  z.strictObject({ ...base, op: z.literal('invoke'), target: SkillLocatorSchema }),
  z.strictObject({
    ...base,
    op: z.literal('toggle'),
    target: SkillLocatorSchema,
    checked: z.boolean().optional(),
  }),
  z.strictObject({ ...base, op: z.literal('set_value'), target: SkillLocatorSchema, value: Template }),
  z.strictObject({
    ...base,
    op: z.literal('type'),
    target: SkillLocatorSchema.optional(),
    text: Template.min(1),
  }),
  z.strictObject({ ...base, op: z.literal('key'), keys: z.array(z.string().min(1).max(12)).min(1).max(4) }),
]);
export type SkillStep = z.infer<typeof SkillStepSchema>;

export const SKILL_INPUT_TYPES = ['number', 'integer', 'string'] as const;

export const SkillInputSchema = z.strictObject({
  name: Name,
  type: z.enum(SKILL_INPUT_TYPES),
  /** The value the run used, shown as the tool's example. */
  example: z.string().max(200),
});

export const DesktopSkillSchema = z
  .strictObject({
    schemaVersion: z.literal(SKILL_SCHEMA_VERSION),
    kind: z.literal('desktop-skill'),
    name: z
      .string()
      .regex(/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/, 'snake_case with at least two words (verb_object)'),
    intent: z.string().min(1).max(300),
    program: z.string().regex(/^[a-z][a-z0-9-]{0,40}$/),
    window: z.string().min(1).max(200),
    inputs: z.array(SkillInputSchema).max(10),
    /** SHA-256 of the window's structure (roles, names, ids of its controls; no values). */
    fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
    steps: z.array(SkillStepSchema).min(1).max(30),
    read: z.strictObject({ target: SkillLocatorSchema, output: Name }),
    provenance: z.strictObject({
      runId: z.string().min(1).max(100),
      createdAt: z.iso.datetime(),
      liftVersion: z.string().min(1).max(40),
    }),
  })
  .superRefine((skill, context) => {
    const declared = new Set(skill.inputs.map((input) => input.name));
    const used = new Set(placeholdersOf(skill.steps));
    for (const name of used) {
      if (!declared.has(name))
        context.addIssue({ code: 'custom', message: `unknown input '${name}'`, path: ['steps'] });
    }
    for (const name of declared) {
      if (!used.has(name))
        context.addIssue({ code: 'custom', message: `input '${name}' is never used`, path: ['inputs'] });
    }
  });
export type DesktopSkill = z.infer<typeof DesktopSkillSchema>;

const PLACEHOLDER = /\{\{([a-zA-Z][a-zA-Z0-9_]*)\}\}/g;

export function placeholdersOf(value: unknown): string[] {
  const text = JSON.stringify(value);
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}

/** Replaces `{{name}}` with the bound input; every placeholder is known (the schema checked). */
export function bind(template: string, inputs: Readonly<Record<string, unknown>>): string {
  return template.replace(PLACEHOLDER, (_, name: string) => String(inputs[name] ?? ''));
}

export function canonicalSkill(skill: DesktopSkill): string {
  return canonicalJson(skill);
}

export function skillRevision(skill: DesktopSkill): string {
  return sha256(canonicalSkill(skill));
}
