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
export const TargetSchema = z
  .union([RefTargetSchema, NamedTargetSchema], {
    error: 'A control is {"ref": "e12"} alone, or named by any of "name", "role", "id", "nth".',
  })
  .describe('A control.');
export type Target = z.infer<typeof TargetSchema>;

export const ExpectSchema = z
  .strictObject({
    target: TargetSchema.optional().describe("Control to read; default the action's, else the focused one."),
    text_contains: z.string().min(1).max(500).describe('Text it must show.'),
  })
  .describe('Checked after the action.');
export type Expect = z.infer<typeof ExpectSchema>;

const KeyCombo = z.string().regex(KEY_COMBO, 'A key combination such as enter, ctrl+c, shift+tab or f5.');
const KeyList = z.array(z.string().min(1).max(12)).min(1).max(4);
const Keys = z
  .union([
    KeyCombo,
    KeyList.transform((keys) => keys.join('+')).pipe(
      z.string().regex(KEY_COMBO, 'Keys such as ["ctrl", "c"] or ["enter"].'),
    ),
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

/**
 * A control as a caller writes it: one object, then parsed by TargetSchema's exact union. The
 * JSON Schema a model reads is this flat shape; written out, the union repeated in each of the
 * six actions and their expectations was 10 KB of act_window's listing (issue 43 item 1).
 */
const ControlAsWritten = z
  .strictObject({ ...RefTargetSchema.partial().shape, ...NamedTargetSchema.shape })
  .pipe(TargetSchema);

const OPS = ['invoke', 'toggle', 'set_value', 'type', 'key', 'shortcut'] as const;

/**
 * One action as a caller writes it: every op's fields in one object, parsed then by the exact
 * union, whose errors name a field an op does not take. Flat, as playwright-mcp's tools are.
 */
const ActionAsWritten = z
  .strictObject({
    op: z
      .enum(OPS)
      .describe(
        'invoke: press a button, pick a menu item (target). toggle: check or uncheck (target, checked?). set_value: a field or slider (target, value). type: text (text, target?). key: press keys (keys). shortcut: one the program ships (name).',
      ),
    target: ControlAsWritten.optional().describe(
      'The control: {"ref": "e12"} from observe_window, or {"name", "role", "id", "nth"} as it shows them.',
    ),
    checked: z.boolean().optional().describe('toggle: state wanted; left out, the control flips.'),
    value: z
      .union([z.string().max(2000), z.number()])
      .optional()
      .describe('set_value: text or number.'),
    text: z.string().min(1).max(2000).optional().describe('type: keys to type, e.g. 25*4.'),
    keys: z.union([KeyCombo, KeyList]).optional().describe('key: "ctrl+c", or ["ctrl", "c"].'),
    name: z.string().min(1).max(60).optional().describe('shortcut: as observe_window lists it.'),
    expect: z
      .strictObject({
        target: ControlAsWritten.optional().describe(
          "Control to read; default the action's, else the focused one.",
        ),
        text_contains: z.string().min(1).max(500).describe('Text it must show.'),
      })
      .optional()
      .describe('Checked after the action.'),
  })
  .pipe(DesktopActionSchema);

export const DesktopActionsSchema = z
  .array(ActionAsWritten)
  .min(1)
  .max(MAX_DESKTOP_ACTIONS)
  .describe('Done in order; the first that fails stops the rest.');
