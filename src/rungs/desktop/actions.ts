import { z } from 'zod';
import { KEY_COMBO } from './shortcuts.js';

/**
 * The typed operations act_window performs. Controls are named by a ref from the latest
 * observation or by role, name and id; there is no way to pass coordinates or code.
 */
export const RefTargetSchema = z.strictObject({
  ref: z.string().regex(/^e\d{1,5}$/, 'A ref looks like e12, copied from observe_window.'),
});
export const NamedTargetSchema = z.strictObject({
  /** The control's name as observe_window shows it ("7", "Copy", "Delete all files"). */
  name: z.string().max(200).optional(),
  /** The toolkit's id (shown in [brackets]), when the control has one. */
  id: z.string().min(1).max(200).optional(),
  /** The role as observe_window shows it ("push button", "text", "check box"). */
  role: z.string().min(1).max(40).optional(),
  /** Which of several matching controls, counting from 0 in window order. */
  nth: z.number().int().min(0).max(200).optional(),
});
export const TargetSchema = z.union([RefTargetSchema, NamedTargetSchema]);
export type Target = z.infer<typeof TargetSchema>;

export const ExpectSchema = z.strictObject({
  /** The control to read after the action (default: the action's own control, else any text of the window). */
  target: TargetSchema.optional(),
  text_contains: z.string().min(1).max(500),
});
export type Expect = z.infer<typeof ExpectSchema>;

const Keys = z.union([
  z.string().regex(KEY_COMBO, 'A key combination such as enter, ctrl+c, shift+tab or f5.'),
  z
    .array(z.string().min(1).max(12))
    .min(1)
    .max(4)
    .transform((keys) => keys.join('+'))
    .pipe(z.string().regex(KEY_COMBO, 'Keys such as ["ctrl", "c"] or ["enter"].')),
]);

export const DesktopActionSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('invoke'), target: TargetSchema, expect: ExpectSchema.optional() }),
  z.strictObject({
    op: z.literal('toggle'),
    target: TargetSchema,
    /** The state wanted; without it the control flips. */
    checked: z.boolean().optional(),
    expect: ExpectSchema.optional(),
  }),
  z.strictObject({
    op: z.literal('set_value'),
    target: TargetSchema,
    value: z.union([z.string().max(2000), z.number()]),
    expect: ExpectSchema.optional(),
  }),
  z.strictObject({
    op: z.literal('type'),
    text: z.string().min(1).max(2000),
    /** The field to type into; without it the keys go to whatever has the focus. */
    target: TargetSchema.optional(),
    expect: ExpectSchema.optional(),
  }),
  z.strictObject({ op: z.literal('key'), keys: Keys, expect: ExpectSchema.optional() }),
  z.strictObject({
    op: z.literal('shortcut'),
    /** A shortcut the program ships, by the name observe_window lists. */
    name: z.string().min(1).max(60),
    expect: ExpectSchema.optional(),
  }),
]);
export type DesktopAction = z.infer<typeof DesktopActionSchema>;
export type DesktopActionInput = z.input<typeof DesktopActionSchema>;
export type DesktopOp = DesktopAction['op'];

export const MAX_DESKTOP_ACTIONS = 6;
export const DesktopActionsSchema = z.array(DesktopActionSchema).min(1).max(MAX_DESKTOP_ACTIONS);
