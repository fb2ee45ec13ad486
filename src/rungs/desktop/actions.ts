import { z } from 'zod';
import { KEY_COMBO } from './shortcuts.js';

/**
 * The typed operations act_window performs. Controls are named by a ref from the latest
 * observation or by role, name and id; there is no way to pass coordinates or code.
 */
export const RefTargetSchema = z.strictObject({
  ref: z
    .string()
    .regex(/^e\d{1,5}$/, 'A ref looks like e12, copied from observe_window.')
    .describe('From observe_window: e12.'),
});
export const NamedTargetSchema = z.strictObject({
  name: z.string().max(200).optional().describe('As shown: "Copy".'),
  id: z.string().min(1).max(200).optional().describe('As shown in [ ].'),
  role: z.string().min(1).max(40).optional().describe('As shown: "push button".'),
  nth: z.number().int().min(0).max(200).optional().describe('Which match, from 0.'),
});
export const TargetSchema = z.union([RefTargetSchema, NamedTargetSchema]).describe('A control.');
export type Target = z.infer<typeof TargetSchema>;

export const ExpectSchema = z
  .strictObject({
    target: TargetSchema.optional().describe("Control to read; default the action's."),
    text_contains: z.string().min(1).max(500).describe('Text it must show.'),
  })
  .describe('Checked after the action.');
export type Expect = z.infer<typeof ExpectSchema>;

const Keys = z
  .union([
    z.string().regex(KEY_COMBO, 'A key combination such as enter, ctrl+c, shift+tab or f5.'),
    z
      .array(z.string().min(1).max(12))
      .min(1)
      .max(4)
      .transform((keys) => keys.join('+'))
      .pipe(z.string().regex(KEY_COMBO, 'Keys such as ["ctrl", "c"] or ["enter"].')),
  ])
  .describe('"ctrl+c", or ["ctrl", "c"].');

export const DesktopActionSchema = z.discriminatedUnion('op', [
  z.strictObject({
    op: z.literal('invoke').describe('Press a button or pick a menu item.'),
    target: TargetSchema,
    expect: ExpectSchema.optional(),
  }),
  z.strictObject({
    op: z.literal('toggle').describe('Check or uncheck.'),
    target: TargetSchema,
    checked: z.boolean().optional().describe('State wanted; left out, the control flips.'),
    expect: ExpectSchema.optional(),
  }),
  z.strictObject({
    op: z.literal('set_value').describe('Set a field or slider.'),
    target: TargetSchema,
    value: z.union([z.string().max(2000), z.number()]).describe('Text or number.'),
    expect: ExpectSchema.optional(),
  }),
  z.strictObject({
    op: z.literal('type').describe('Type text.'),
    text: z.string().min(1).max(2000).describe('Keys to type, e.g. 25*4.'),
    target: TargetSchema.optional().describe('Field to type into (default: the focused one).'),
    expect: ExpectSchema.optional(),
  }),
  z.strictObject({
    op: z.literal('key').describe('Press keys.'),
    keys: Keys,
    expect: ExpectSchema.optional(),
  }),
  z.strictObject({
    op: z.literal('shortcut').describe('Use a shortcut the program ships.'),
    name: z.string().min(1).max(60).describe('As observe_window lists it.'),
    expect: ExpectSchema.optional(),
  }),
]);
export type DesktopAction = z.infer<typeof DesktopActionSchema>;
export type DesktopActionInput = z.input<typeof DesktopActionSchema>;
export type DesktopOp = DesktopAction['op'];

export const MAX_DESKTOP_ACTIONS = 6;
export const DesktopActionsSchema = z
  .array(DesktopActionSchema)
  .min(1)
  .max(MAX_DESKTOP_ACTIONS)
  .describe('Done in order; the first that fails stops the rest.');
