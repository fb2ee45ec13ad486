import { z } from 'zod';
import type { EffectClass } from '../contract/effects.js';
import { type BehaviourHints, behaviourHints } from '../contract/hints.js';
import { MAX_ACTIONS_PER_CALL, RefSchema, UiActionSchema } from '../rungs/ui/actions.js';
import { TargetSchema } from '../rungs/ui/locator.js';

/**
 * The four application tools an explorer gets, and nothing else. The model explorer, the
 * MCP explorer, the step-by-step command line and the scripted explorer all call these.
 */
export const EXPLORER_TOOL_NAMES = ['observe', 'act', 'request_handoff', 'complete'] as const;
export type ExplorerToolName = (typeof EXPLORER_TOOL_NAMES)[number];

export const ObserveArgsSchema = z.strictObject({
  /** Also save a masked screenshot (bound and secret regions blacked out) and return its path. */
  screenshot: z.boolean().optional(),
  /** Show the rows of a long table that contain this value. */
  find: z
    .strictObject({ match: z.string().min(1).max(200), table: z.string().max(200).optional() })
    .optional(),
});

export const ActArgsSchema = z.strictObject({
  actions: z.array(UiActionSchema).min(1).max(MAX_ACTIONS_PER_CALL),
});

export const HandoffArgsSchema = z.strictObject({
  reason: z.string().min(1).max(500),
});

export const CompleteArgsSchema = z.strictObject({
  /** The outputs the task returns; each must have been read with {"op":"read","as":NAME}. */
  outputs: z.array(z.string().min(1).max(64)).min(1).max(20),
  /** Where the page shows a bound input, compared with it on every replay. */
  checkpoint: z.strictObject({
    target: z.union([RefSchema, TargetSchema]),
    input: z.string().min(1).max(64),
    match: z.enum(['exact', 'contains']).optional(),
  }),
});

export type ObserveArgs = z.infer<typeof ObserveArgsSchema>;
export type ActArgs = z.infer<typeof ActArgsSchema>;
export type HandoffArgs = z.infer<typeof HandoffArgsSchema>;
export type CompleteArgs = z.infer<typeof CompleteArgsSchema>;

/**
 * One declaration per explorer tool: what the explorer reads, the effect on the page or on
 * Lift's store (which decides its MCP hints), and the arguments the session checks.
 */
export interface ExplorerToolDeclaration {
  title: string;
  description: string;
  /** observe and request_handoff change nothing; act can submit what the policy allows; complete writes the capability. */
  effect: EffectClass;
  schema: z.ZodObject;
}

export const EXPLORER_TOOLS: Record<ExplorerToolName, ExplorerToolDeclaration> = {
  observe: {
    title: 'Observe the page',
    effect: 'read',
    description:
      'Read the current page: a bounded, redacted accessibility snapshot with a [ref] per actionable element. Bound inputs appear as ⟦input:NAME⟧ and hidden values as ⟦hidden:…⟧; never type those back.',
    schema: ObserveArgsSchema,
  },
  act: {
    title: 'Act on the page',
    effect: 'visible',
    description:
      'Perform up to 6 typed actions (click, fill, select, check, press, navigate, wait_for, read, dialog) on [ref]s or semantic targets. Refer to a bound input as {"input":"NAME"}, never by value. A read {"op":"read","target":…,"as":"OUTPUT"} stores the value for the task; you only learn whether it succeeded. A rejected action comes back with the reason and a corrected example; the session goes on.',
    schema: ActArgsSchema,
  },
  request_handoff: {
    title: 'Hand over to a person',
    effect: 'read',
    description:
      'Ask a person to do what you may not or cannot (sign in again, a second factor, a captcha). The session pauses until they are done.',
    schema: HandoffArgsSchema,
  },
  complete: {
    title: 'Complete the task',
    effect: 'reversible',
    description:
      'Declare the task done: name the outputs you read and the final checkpoint, a target on the page that shows a bound input (for example the member ID cell), compared with that input on every replay.',
    schema: CompleteArgsSchema,
  },
};

export function isExplorerTool(name: string): name is ExplorerToolName {
  return (EXPLORER_TOOL_NAMES as readonly string[]).includes(name);
}

/** MCP annotations of an explorer tool, derived from its declaration like every tool Lift serves. */
export function explorerToolAnnotations(name: ExplorerToolName): BehaviourHints & { title: string } {
  const { title, effect } = EXPLORER_TOOLS[name];
  return { title, ...behaviourHints(effect, false) };
}

/** JSON Schema of each tool's arguments, for the model and MCP explorers. */
export function explorerToolJsonSchema(name: ExplorerToolName): Record<string, unknown> {
  return z.toJSONSchema(EXPLORER_TOOLS[name].schema, { io: 'input' }) as Record<string, unknown>;
}
