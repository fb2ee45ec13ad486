import { z } from 'zod';
import { capturingPattern, MAX_PATTERN_CHARS } from '../../contract/pattern.js';

// The stored locator format: what discovery writes into a capability and replay reads back.
// It lives here, at the UI rung, and not in capability/ beside the capability it is stored in,
// because the rung's own actions (actions.ts) and sign-in recipes (sign-in-recipe.ts) take
// targets in this format too, and the rung may not import capability/ (the layers point down).

/**
 * How Lift names an element: by meaning, never by position, CSS class or XPath. The same
 * locator resolves on a page whose rows and columns were reordered. Shared by the UI rung
 * (actions), the compiler (what it stores) and replay (what it resolves fresh).
 */
export const SemanticLocatorSchema = z.discriminatedUnion('by', [
  z.strictObject({
    by: z.literal('role'),
    role: z.string().min(1).max(40),
    name: z.string().max(200),
    exact: z.boolean().optional(),
  }),
  z.strictObject({ by: z.literal('label'), label: z.string().min(1).max(200) }),
  z
    .strictObject({
      by: z.literal('text'),
      text: z.string().min(1).max(200).optional(),
      /**
       * A regular expression (RE2 syntax) with exactly one capture group, instead of `text`: the
       * element is the innermost one whose text the pattern finds, and a read gives what the group
       * captured ("Last modified: (.+?) by", "Showing \\d+–\\d+ of (\\d+)"). Added within schema version 1.
       */
      pattern: z
        .string()
        .min(1)
        .max(MAX_PATTERN_CHARS)
        .optional()
        .describe(
          'Instead of text: a regular expression (RE2) with one capture group around the value, for a value inside a line ("Last modified: (.+?) by", "(\\d+) rows")',
        ),
    })
    .superRefine((locator, context) => {
      if ((locator.text === undefined) === (locator.pattern === undefined))
        context.addIssue({ code: 'custom', message: 'a text locator names either text or pattern' });
      if (locator.pattern === undefined) return;
      try {
        capturingPattern(locator.pattern, { what: 'text pattern' });
      } catch (error) {
        context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      }
    }),
  z.strictObject({
    by: z.literal('field'),
    /**
     * The text a person reads for the field: its label, else the text right before it
     * ("Enter:" before a box), else its form row's header cell. A trailing colon is optional.
     */
    label: z.string().min(1).max(200),
    /** The kind of field, when the row holds several (a Function select and a Value box). */
    role: z.string().min(1).max(40).optional(),
  }),
  z.strictObject({
    by: z.literal('pair'),
    /**
     * The label of a "Label: value" pair, a definition list's term or a row's header cell:
     * the element is the value beside it ("Status" of "Status: New" reads "New").
     */
    label: z.string().min(1).max(200),
  }),
  /**
   * The editable body of the frame the target names: a rich-text editor whose iframe document
   * is the editor (TinyMCE) and whose body has no label of its own; the frame's title names it.
   */
  z.strictObject({ by: z.literal('editor') }),
  z.strictObject({
    by: z.literal('cell'),
    /** A value that identifies the row (any cell's text in it). */
    row: z.string().min(1).max(200),
    /** The column header's text. */
    column: z.string().min(1).max(200),
    /**
     * The key column: the row is the one whose cell in this column holds `row` (the cell's
     * whole text, or an element in it, such as the record's link). Without it, any cell of
     * the row equal to `row` picks it, which on real tables matches the wrong row ("3" is
     * also a customer id and a quantity).
     */
    key: z.string().min(1).max(200).optional(),
    /** The table's accessible name or caption, when the page has several tables. */
    table: z.string().max(200).optional(),
    /**
     * The table's column headers as discovery read them (each header cell's text, white space
     * collapsed, empty ones left out), in any order: only a table with exactly these headers is
     * read, so a second table with the row is never answered from. Added within schema version 1.
     */
    headers: z.array(z.string().max(200)).min(1).max(60).optional(),
    /** An element inside the cell (a link or button in it), by role and accessible name. */
    element: z
      .strictObject({ role: z.string().min(1).max(40), name: z.string().max(200).optional() })
      .optional(),
  }),
]);
export type SemanticLocator = z.infer<typeof SemanticLocatorSchema>;

/** Where the element lives: the top page or an iframe named by its title or name attribute. */
export const FramePathSchema = z.array(z.string().min(1).max(200)).max(4);
export type FramePath = z.infer<typeof FramePathSchema>;

/** A named region, landmark, form, fieldset or dialog the element sits in. */
export const WithinSchema = z.strictObject({
  role: z.string().min(1).max(40),
  name: z.string().min(1).max(200),
});
export type Within = z.infer<typeof WithinSchema>;

/**
 * Frame, then the named container the element sits in, then the locator, then which match
 * (`nth`: 1 for the first) when the locator alone names several: a target names one element.
 */
export const TargetSchema = z.strictObject({
  frame: FramePathSchema.default([]),
  within: WithinSchema.optional(),
  locator: SemanticLocatorSchema,
  nth: z.number().int().min(1).max(500).optional(),
});
export type Target = z.infer<typeof TargetSchema>;

/** A target as a person reads it: `the 2nd link "Edit" in region "Recent posts"`. */
export function describeScopedLocator(target: Omit<Target, 'frame'>): string {
  const ordinal = target.nth ? `the ${ordinalOf(target.nth)} ` : '';
  const within = target.within ? ` in ${target.within.role} "${target.within.name}"` : '';
  return `${ordinal}${describeLocator(target.locator)}${within}`;
}

function ordinalOf(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

export function describeLocator(locator: SemanticLocator): string {
  switch (locator.by) {
    case 'role':
      // An empty name matched loosely is any name: a position (`nth`) then tells which.
      return locator.name === '' && locator.exact === false
        ? `any ${locator.role}`
        : `${locator.role} "${locator.name}"`;
    case 'label':
      return `field labelled "${locator.label}"`;
    case 'text':
      return locator.pattern === undefined ? `text "${locator.text}"` : `text matching /${locator.pattern}/`;
    case 'field':
      return `${locator.role ?? 'field'} after "${locator.label}"`;
    case 'pair':
      return `value of "${locator.label}"`;
    case 'editor':
      return 'the rich-text editor';
    case 'cell':
      return `${locator.element ? `${locator.element.role} in ` : ''}cell (row ${locator.key ? `whose ${locator.key} is ` : ''}"${locator.row}", column "${locator.column}")${locator.table ? ` of table "${locator.table}"` : ''}`;
  }
}
