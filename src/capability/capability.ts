import { z } from 'zod';
import { capturingPattern, MAX_PATTERN_CHARS } from '../contract/pattern.js';
import { REPLAYABLE_KEYS } from '../rungs/ui/actions.js';
import { TargetSchema } from '../rungs/ui/locator-format.js';
import { canonicalJson, sha256 } from '../runtime/canonical.js';
import { NormaliseSchema } from './normalise.js';
import { placeholdersIn } from './placeholders.js';

/**
 * A capability: what one exploration of a screen left behind, typed, versioned and
 * replayable without a model. Identified by the SHA-256 of its canonical JSON.
 */
export const CAPABILITY_SCHEMA_VERSION = 1;

const Name = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-zA-Z][a-zA-Z0-9_]*$/, 'letters, digits and underscores, starting with a letter');

export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean'] as const;
export const FieldTypeSchema = z.enum(FIELD_TYPES);
export type FieldType = z.infer<typeof FieldTypeSchema>;

export const InputSpecSchema = z.strictObject({
  name: Name,
  type: FieldTypeSchema,
  description: z.string().max(300).optional(),
});
export type InputSpec = z.infer<typeof InputSpecSchema>;

const Param = z.string().min(1).max(100);

/** A pattern with one capture group, compiled when the capability is parsed, on the linear-time engine. */
const CaptureSchema = z
  .string()
  .min(1)
  .max(MAX_PATTERN_CHARS)
  .superRefine((source, context) => {
    try {
      capturingPattern(source, { what: 'message pattern' });
    } catch (error) {
      context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
    }
  });

/**
 * Where an output comes from when no step reads it, read after the checkpoint passed, from the
 * resulting page only:
 * - `url`: the URL of the document the last step led to (a created record's address), or one
 *   query parameter of it (`id` of `users.php?update=add&id=7`);
 * - `message`: the text of the page's status or flash message, the value being what the
 *   pattern's one capture group matched (`Request (R-\d+) created`);
 * - `link`: the href of the one link whose accessible name is exactly `name` ("View post"),
 *   as an absolute URL, or one query parameter of it.
 */
export const OutputSourceSchema = z.union([
  z.strictObject({ url: z.strictObject({ param: Param.optional() }) }),
  z.strictObject({
    message: z.strictObject({
      pattern: CaptureSchema.describe(
        "A regular expression (RE2 syntax) with exactly one capture group around the value, matched against the page's status or flash message",
      ),
    }),
  }),
  z.strictObject({
    link: z.strictObject({
      name: z
        .string()
        .min(1)
        .max(200)
        .describe('The exact accessible name of the link to the created record, as the page shows it'),
      param: Param.optional().describe("A query parameter of the link's href; without it, the absolute URL"),
    }),
  }),
]);
export type OutputSource = z.infer<typeof OutputSourceSchema>;

export const OutputSpecSchema = z.strictObject({
  name: Name,
  type: FieldTypeSchema,
  description: z.string().max(300).optional(),
  from: OutputSourceSchema.optional(),
});
export type OutputSpec = z.infer<typeof OutputSpecSchema>;

/**
 * A value typed into the page: either a bound input (by name, never by value) or a
 * constant the explorer typed. Locator strings may hold `{{input.NAME}}` placeholders.
 */
export const ValueSchema = z.union([
  z.strictObject({ input: Name }),
  z.strictObject({ literal: z.string().max(2000) }),
  /** Several inputs and literal text in one field: `"{{input.title}} — {{input.date}}"`. */
  z.strictObject({ template: z.string().min(1).max(2000) }),
]);
export type Value = z.infer<typeof ValueSchema>;

/** What must hold after a step before the next one starts. */
export const PostconditionSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('visible'), target: TargetSchema }),
  z.strictObject({ kind: z.literal('value'), target: TargetSchema, equals: ValueSchema }),
  z.strictObject({ kind: z.literal('checked'), target: TargetSchema, checked: z.boolean() }),
  z.strictObject({ kind: z.literal('none') }),
]);
export type Postcondition = z.infer<typeof PostconditionSchema>;

/** The keys a step may press: those a form is worked with, and caret keys (actions.ts). */
const REPLAYABLE_KEY = new RegExp(`^(?:${REPLAYABLE_KEYS.map((key) => key.replace('+', '\\+')).join('|')})$`);

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const stepBase = {
  version: z.literal(1),
  expect: PostconditionSchema,
  /**
   * The skeleton fingerprint (fingerprint.ts) of the page discovery found the step's target on:
   * at replay, a target missing from a page of the same structure that the inputs shaped is a
   * missing record (not_found), not another screen (replay/absence.ts).
   */
  onPage: Sha256.optional(),
  /**
   * Discovery saw this step send the application a write (a form post, an XHR save): replay
   * listens there for the application's refusal (a duplicate, a validation message).
   */
  writes: z.literal(true).optional(),
};

/**
 * The closed, versioned union of recorded steps. Replay switches over `op` exhaustively;
 * there is no catch-all member, so a new kind of step is a new schema version.
 */
export const StepSchema = z.discriminatedUnion('op', [
  z.strictObject({
    ...stepBase,
    op: z.literal('navigate'),
    /** A path on the start origin; `{{input.NAME}}` in it is replaced by the input, URL-encoded. */
    path: z.string().min(1).max(500).startsWith('/'),
  }),
  z.strictObject({ ...stepBase, op: z.literal('click'), target: TargetSchema }),
  z.strictObject({ ...stepBase, op: z.literal('fill'), target: TargetSchema, value: ValueSchema }),
  /**
   * The value typed key by key, for a widget that acts on key events (an autocomplete).
   * `clear: false`: typed at the caret (where a caret key put it), keeping what the field
   * held; absent, the field is emptied first.
   */
  z.strictObject({
    ...stepBase,
    op: z.literal('type'),
    target: TargetSchema,
    value: ValueSchema,
    clear: z.boolean().optional(),
  }),
  z.strictObject({ ...stepBase, op: z.literal('select'), target: TargetSchema, value: ValueSchema }),
  z.strictObject({ ...stepBase, op: z.literal('check'), target: TargetSchema, checked: z.boolean() }),
  z.strictObject({
    ...stepBase,
    op: z.literal('press'),
    target: TargetSchema,
    key: z.string().regex(REPLAYABLE_KEY),
  }),
  z.strictObject({ ...stepBase, op: z.literal('wait_for'), target: TargetSchema }),
  z.strictObject({ ...stepBase, op: z.literal('read'), target: TargetSchema, output: Name }),
]);
export type Step = z.infer<typeof StepSchema>;
export type StepOp = Step['op'];

/** Inputs a step types or chooses into the page, alone or in a template (not those only in locators or paths). */
export function writtenInputs(steps: readonly Step[]): string[] {
  const names = steps.flatMap((step) =>
    step.op === 'fill' || step.op === 'type' || step.op === 'select'
      ? 'input' in step.value
        ? [step.value.input]
        : 'template' in step.value
          ? placeholdersIn(step.value.template)
          : []
      : [],
  );
  return [...new Set(names)];
}

/**
 * Outcomes a replay may end with as an answer rather than an error: the record was there
 * (or the write was done), it does not exist, the write would make one that already does,
 * or the application refused the write with a message of its own (a duplicate login, a
 * validation error), the form still shown.
 */
export const OUTCOMES = ['found', 'not_found', 'already_exists', 'rejected'] as const;

/** How many of the application's error pages a capability keeps (the first ones discovery met). */
export const MAX_ERROR_PAGES = 5;
export const OutcomeSchema = z.enum(OUTCOMES);
export type CapabilityOutcome = z.infer<typeof OutcomeSchema>;

const comparison = {
  target: TargetSchema,
  match: z.enum(['exact', 'contains']),
  /**
   * How the page's text and the expected value are compared when the application writes the
   * value its own way (normalise.ts); absent, exactly as typed. Added within schema version 1.
   */
  normalise: NormaliseSchema.optional(),
};

/**
 * One comparison of the page with a bound input, or with an output the replay has read by
 * then (a created record's id from the resulting URL, a flash message or a link): the page
 * must show the record the write made, not only the values it typed.
 */
export const ValueCheckSchema = z.strictObject({
  ...comparison,
  equals: z.union([z.strictObject({ input: Name }), z.strictObject({ output: Name })]),
});
export type ValueCheck = z.infer<typeof ValueCheckSchema>;

/**
 * Compares the page with the bound inputs before any output is returned: the key (where the
 * page shows which record this is, always a bound input) and, for every other value the
 * capability typed into the page, where the resulting page shows it (`values`): a write
 * reads back all it wrote.
 */
export const CheckpointSchema = z.strictObject({
  ...comparison,
  equals: z.strictObject({ input: Name }),
  values: z.array(ValueCheckSchema).min(1).max(20).optional(),
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;

/**
 * How the records a capability looks for are paged: the control that shows the next page,
 * and how many pages replay may look through before it answers not_found.
 */
export const PagingSchema = z.strictObject({
  next: TargetSchema,
  pages: z.number().int().min(2).max(50),
});
export type Paging = z.infer<typeof PagingSchema>;

/**
 * What an outcome other than found looks like, as discovery saw it on an example input: the
 * page after `after` steps (0: the start page) shows one of `shows`, each naming a bound input
 * ({{input.NAME}}), and, when discovery saw one, its document's HTTP status. Replay answers
 * the outcome from this evidence at that point only, never from words elsewhere; a write
 * stops there before any step that can change the application runs.
 */
export const OutcomeSignSchema = z.strictObject({
  outcome: z.enum(['not_found', 'already_exists']),
  after: z.number().int().min(0).max(60),
  status: z.number().int().min(400).max(599).optional(),
  shows: z.array(TargetSchema).max(5),
  /**
   * The same, for an answer that names no input ("No data to display", an empty table): a
   * message the application showed there, in none of the found path's pages, together with
   * the structure of the page that showed it. Both must hold: neither words alone nor a
   * structure alone tell a missing record from a found one.
   */
  message: TargetSchema.optional(),
  structure: Sha256.optional(),
});
export type OutcomeSign = z.infer<typeof OutcomeSignSchema>;

export const PreconditionsSchema = z.strictObject({
  origin: z.url().max(200),
  path: z.string().min(1).max(500).startsWith('/'),
  /** SHA-256 of the start page's accessibility skeleton (sorted roles and names, no data). */
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  /**
   * The same, of the start page as discovery read it at its load event, when its own scripts
   * then changed it (phpMyAdmin adds its navigation after load): a replay that reads that page
   * at its load event need not wait for the scripts to know it is the same screen.
   */
  loadFingerprint: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /**
   * Where discovery met the application's sign-in form (the path of the page that showed it,
   * without parameters that held a bound input): the start page is public, the operation is
   * not. A replay signs in there by its recipe before it loads the start page.
   */
  signInAt: z.string().min(1).max(500).startsWith('/').optional(),
});

export const ProvenanceSchema = z.strictObject({
  explorer: z.enum(['scripted', 'model', 'mcp', 'cli']),
  model: z.string().max(200).optional(),
  runId: z.string().min(1).max(100),
  createdAt: z.iso.datetime(),
  liftVersion: z.string().min(1).max(40),
});

/**
 * One run of a rehearsal: a full replay on the discovery's inputs or an example's, or, for a
 * capability that writes, its read-back from the page the write led to (never the write).
 * `answer`: a write whose only evidence is the message the application answered it with
 * (shown once, never on a fresh visit), which discovery saw and nothing could read back.
 */
export const RehearsalRunSchema = z.strictObject({
  kind: z.enum(['replay', 'read_back', 'example', 'answer']),
  /** Whose inputs: the discovery's own, or an example's (by its outcome). */
  inputs: z.enum(['discovery', 'found', 'not_found', 'already_exists']),
  /** What the replay answered (an example answers the outcome it was given for). */
  outcome: OutcomeSchema,
  ms: z.number().int().min(0),
});

export const RehearsalSchema = z.strictObject({
  at: z.iso.datetime(),
  passed: z.literal(true),
  runs: z.array(RehearsalRunSchema).min(1).max(10),
});
export type Rehearsal = z.infer<typeof RehearsalSchema>;

export const CapabilitySchema = z
  .strictObject({
    schemaVersion: z.literal(CAPABILITY_SCHEMA_VERSION),
    name: z
      .string()
      .regex(/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/, 'snake_case with at least two words (verb_object)'),
    intent: z.string().min(1).max(500),
    inputs: z.array(InputSpecSchema).min(1).max(20),
    outputs: z.array(OutputSpecSchema).min(1).max(20),
    preconditions: PreconditionsSchema,
    steps: z.array(StepSchema).min(1).max(60),
    outcomes: z.array(OutcomeSchema).min(1).max(OUTCOMES.length),
    /** Dialog messages (substrings) the capability may accept; any other dialog stops the replay. */
    dialogs: z.array(z.string().min(1).max(200)).max(5).default([]),
    checkpoint: CheckpointSchema,
    paging: PagingSchema.optional(),
    /** What not_found and already_exists look like, learned from example inputs in discovery. */
    signs: z.array(OutcomeSignSchema).max(4).optional(),
    /**
     * The application's error pages as discovery saw them (a document answered HTTP 500 or
     * worse): the SHA-256 of each one's skeleton (errorPageOf in fingerprint.ts). Replay calls a
     * document with that skeleton an application error whatever its status, never by its words.
     */
    errorPages: z
      .array(z.string().regex(/^[0-9a-f]{64}$/))
      .max(5)
      .optional(),
    provenance: ProvenanceSchema,
    /** How complete proved the capability before it was written (rehearsal.ts). */
    rehearsal: RehearsalSchema.optional(),
  })
  .superRefine((capability, context) => {
    const inputs = new Set(capability.inputs.map((input) => input.name));
    const outputs = new Set(capability.outputs.map((output) => output.name));
    const read = new Set<string>();
    const usesInput = (name: string, path: (string | number)[]) => {
      if (!inputs.has(name)) context.addIssue({ code: 'custom', message: `unknown input '${name}'`, path });
    };
    capability.steps.forEach((step, index) => {
      if ((step.op === 'fill' || step.op === 'type' || step.op === 'select') && 'input' in step.value) {
        usesInput(step.value.input, ['steps', index, 'value']);
      }
      if (step.op === 'read') {
        if (!outputs.has(step.output)) {
          context.addIssue({
            code: 'custom',
            message: `read of undeclared output '${step.output}'`,
            path: ['steps', index],
          });
        }
        read.add(step.output);
      }
      for (const name of placeholdersIn(step)) usesInput(name, ['steps', index]);
    });
    for (const output of capability.outputs) {
      if (output.from) read.add(output.name);
    }
    capability.signs?.forEach((sign, index) => {
      if (!capability.outcomes.includes(sign.outcome))
        context.addIssue({
          code: 'custom',
          message: `a sign of '${sign.outcome}', which outcomes do not declare`,
          path: ['signs', index],
        });
      if (sign.after > capability.steps.length)
        context.addIssue({
          code: 'custom',
          message: 'after more steps than there are',
          path: ['signs', index],
        });
      for (const name of placeholdersIn(sign.shows)) usesInput(name, ['signs', index, 'shows']);
      if (sign.shows.some((target) => placeholdersIn(target).length === 0))
        context.addIssue({
          code: 'custom',
          message: 'each sign names a bound input ({{input.NAME}}): words alone are no evidence',
          path: ['signs', index, 'shows'],
        });
      if (sign.shows.length === 0 && (sign.message === undefined || sign.structure === undefined))
        context.addIssue({
          code: 'custom',
          message:
            'a sign shows a text naming a bound input, or a message together with the structure of its page',
          path: ['signs', index],
        });
    });
    for (const output of outputs) {
      if (!read.has(output))
        context.addIssue({ code: 'custom', message: `output '${output}' is never read`, path: ['outputs'] });
    }
    usesInput(capability.checkpoint.equals.input, ['checkpoint', 'equals']);
    capability.checkpoint.values?.forEach((check, index) => {
      const path = ['checkpoint', 'values', index, 'equals'];
      if ('input' in check.equals) usesInput(check.equals.input, path);
      else if (!outputs.has(check.equals.output))
        context.addIssue({ code: 'custom', message: `unknown output '${check.equals.output}'`, path });
    });
    if (!capability.outcomes.includes('found')) {
      context.addIssue({ code: 'custom', message: "outcomes must include 'found'", path: ['outcomes'] });
    }
  });
export type Capability = z.infer<typeof CapabilitySchema>;

export { bindPlaceholders, fillTemplate, placeholdersIn } from './placeholders.js';

export type ValidationResult = { success: true; data: Capability } | { success: false; issues: string[] };

export function validateCapability(raw: unknown): ValidationResult {
  const parsed = CapabilitySchema.safeParse(raw);
  if (parsed.success) return { success: true, data: parsed.data };
  return {
    success: false,
    issues: parsed.error.issues.map(
      (issue) => `${issue.path.map(String).join('.') || '(capability)'}: ${issue.message}`,
    ),
  };
}

/** RFC 8785 canonical text of a validated capability: what is stored and hashed. */
export function canonicalCapability(capability: Capability): string {
  return canonicalJson(capability);
}

/** The capability's revision: SHA-256 of its canonical JSON. */
export function revisionOf(capability: Capability): string {
  return sha256(canonicalCapability(capability));
}
