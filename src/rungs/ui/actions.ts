import { z } from 'zod';
import { FramePathSchema, TargetSchema } from './locator-format.js';

/**
 * The typed operations the model may ask for. There is no way to pass JavaScript, CSS or
 * XPath: elements are named by a ref from the latest observation or by a semantic target.
 */
export const RefSchema = z.strictObject({
  /** A ref from the latest observation, such as "e5" or "f2e17". */
  ref: z
    .string()
    .regex(/^(?:f\d{1,3})?e\d{1,6}$/, 'A ref looks like e5 or f2e17, copied from the observation.'),
});
export const ActionTargetSchema = z.union([RefSchema, TargetSchema]);
export type ActionTarget = z.infer<typeof ActionTargetSchema>;

/** A bound input, referred to by name: the model never sees or types its value. */
export const InputRefSchema = z.strictObject({ input: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/) });
/**
 * Text composed of bound inputs and literal text, as one value: inputs named `{{title}}` (or
 * `{{input.title}}`, the capability's own form), everything else typed as written, line breaks
 * included. The model still never sees or types an input's value.
 */
export const TemplateValueSchema = z.strictObject({
  template: z
    .string()
    .min(1)
    .max(2000)
    .describe('Inputs as {{NAME}} among literal text: "== {{title}} ==\n\n{{body}}"'),
});
export const TextValueSchema = z.union([z.string().max(2000), InputRefSchema, TemplateValueSchema]);
export type TextValue = z.infer<typeof TextValueSchema>;

/**
 * Keys that only move the caret inside a field (to type at its end, say), and change nothing
 * else: a capability may press them, with the few keys a form is worked with. Anything else
 * (shortcuts, Backspace, Delete) never goes into a capability, so discovery refuses it.
 */
export const CARET_KEYS = ['Home', 'End', 'Control+Home', 'Control+End', 'ArrowLeft', 'ArrowRight'] as const;
export const REPLAYABLE_KEYS = [
  'Enter',
  'Tab',
  'Escape',
  'ArrowUp',
  'ArrowDown',
  'Space',
  ...CARET_KEYS,
] as const;

export function isCaretKey(key: string): boolean {
  return (CARET_KEYS as readonly string[]).includes(key);
}

const KEY =
  /^(?:(?:Control|Shift|Alt|Meta|ControlOrMeta)\+){0,3}(?:[A-Za-z0-9]|Enter|Tab|Escape|Backspace|Delete|Space|ArrowUp|ArrowDown|ArrowLeft|ArrowRight|Home|End|PageUp|PageDown|F[1-9]|F1[0-2])$/;

/** What to read before and after the action to decide whether it took effect. */
export const VerifySchema = z.strictObject({
  target: ActionTargetSchema,
  /** The value expected after the action (text of the element, or a field's value). */
  equals: TextValueSchema.optional(),
  contains: TextValueSchema.optional(),
});
export type Verify = z.infer<typeof VerifySchema>;

const timeoutMs = z.number().int().min(100).max(30_000);

export const UiActionSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('click'), target: ActionTargetSchema, verify: VerifySchema.optional() }),
  z.strictObject({ op: z.literal('fill'), target: ActionTargetSchema, value: TextValueSchema }),
  /**
   * Types the text key by key, for widgets that act on key events (an autocomplete that
   * suggests after a few characters, an editor that formats as it goes), where fill's single
   * input event goes unnoticed.
   */
  z.strictObject({
    op: z.literal('type'),
    target: ActionTargetSchema,
    value: TextValueSchema,
    /**
     * false: type at the caret, keeping what the field holds (after a caret key such as
     * Control+End, to append). Absent or true: the field is emptied first.
     */
    clear: z
      .boolean()
      .optional()
      .describe('false: type at the caret without emptying the field first (after Control+End to append)'),
  }),
  z.strictObject({ op: z.literal('select'), target: ActionTargetSchema, value: TextValueSchema }),
  z.strictObject({ op: z.literal('check'), target: ActionTargetSchema, checked: z.boolean().default(true) }),
  z.strictObject({
    op: z.literal('press'),
    key: z.string().regex(KEY, 'A key such as Enter, Tab, Escape, ArrowDown or Control+End.'),
    target: ActionTargetSchema.optional(),
    verify: VerifySchema.optional(),
  }),
  z.strictObject({
    op: z.literal('navigate'),
    /** An absolute URL or a path on the current origin. */
    url: z.string().min(1).max(2000),
    /** Navigate this iframe instead of the top page. */
    frame: FramePathSchema.optional(),
  }),
  z.strictObject({ op: z.literal('reload'), frame: FramePathSchema.optional() }),
  z.strictObject({
    op: z.literal('wait_for'),
    target: ActionTargetSchema.optional(),
    text: z.string().min(1).max(200).optional(),
    state: z.enum(['visible', 'hidden']).default('visible'),
    timeoutMs: timeoutMs.default(5_000),
  }),
  z.strictObject({
    op: z.literal('read'),
    target: ActionTargetSchema,
    /** The name the value is read into (an output of the task). */
    as: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/),
  }),
  z.strictObject({
    op: z.literal('dialog'),
    response: z.enum(['accept', 'dismiss']),
    /** Text for a prompt() dialog. */
    text: TextValueSchema.optional(),
  }),
]);
export type UiAction = z.infer<typeof UiActionSchema>;
export type UiActionInput = z.input<typeof UiActionSchema>;
export type UiOp = UiAction['op'];

export const UI_OPS = [
  'click',
  'fill',
  'type',
  'select',
  'check',
  'press',
  'navigate',
  'reload',
  'wait_for',
  'read',
  'dialog',
] as const satisfies readonly UiOp[];

export const MAX_ACTIONS_PER_CALL = 6;
export const UiActionsSchema = z.array(UiActionSchema).min(1).max(MAX_ACTIONS_PER_CALL);

export function isRef(target: ActionTarget): target is z.infer<typeof RefSchema> {
  return 'ref' in target;
}
