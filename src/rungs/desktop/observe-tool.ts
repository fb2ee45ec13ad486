import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { desktopSession, WindowSelectorShape } from './context.js';
import { renderWindow } from './render.js';

export const observeWindow = defineTool({
  name: 'observe_window',
  title: 'Read a desktop window',
  description:
    'Reads a desktop window\'s accessibility tree in one call and returns its interactable controls as text, one a line: ref, role, "name", [id], {what you can do}, [states], = content, (description). The first line says how rich the tree is ("rich: 26 interactable of 31 elements" or "EMPTY: the tree is thin"); the last lists the program\'s shortcuts, which are exact and instant. Use the refs or names in act_window.',
  group: 'desktop',
  rung: 'ui',
  input: z.strictObject({
    ...WindowSelectorShape,
    filter: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('Only controls whose role, name or id contains it.'),
    max_tokens: z
      .number()
      .int()
      .min(200)
      .max(8000)
      .default(1500)
      .describe('Longest text to return, in tokens.'),
  }),
  output: z.object({
    text: z.string().describe('The controls, one a line, as the description says.'),
    program: z.string().describe('The program read.'),
    title: z.string().describe('Its window title.'),
    pid: z.number().int().describe('Its process id.'),
    interactable: z.number().int().describe('Controls that can be acted on.'),
    elements: z.number().int().describe('Elements in the tree.'),
    rich: z.boolean().describe('False when the tree is too thin to act on.'),
    shown: z.number().int().describe('Controls in text.'),
    truncated: z.boolean().describe('True when max_tokens or filter left controls out.'),
    fingerprint: z.string().describe("SHA-256 of the window's structure; changes when its controls do."),
    read_ms: z.number().describe('Milliseconds the read took.'),
  }),
  verifiedBy: 'the read itself: one walk of the window on the accessibility bus',
  cap: { chars: 40_000, narrow: 'Pass "filter" or a smaller "max_tokens".' },
  errors: {
    NOT_FOUND: {
      hint: 'No such window is open; start the program with start_program or name another window.',
    },
    PROGRAM_FAILED: {
      hint: 'The desktop display or its accessibility bus is not running; see the hint for its error output.',
    },
  },
  effect: { class: 'read' },
  timeout: { deadlineMs: 20_000 },
  example: { program: 'gnome-calculator' },
  run: async (input, ctx) => {
    const session = await desktopSession(ctx);
    const window = await session.window(input, ctx.deadline);
    const read = await session.read(window, ctx.deadline);
    const rendered = renderWindow({
      program: window.program,
      pid: window.pid,
      title: window.title,
      controls: read.controls,
      richness: read.richness,
      shortcuts: session.program(window.program).shortcutList,
      maxTokens: input.max_tokens,
      ...(input.filter ? { filter: input.filter } : {}),
    });
    const refs = new Map<string, string>();
    for (const [ref, index] of rendered.refs) refs.set(ref, read.controls[index]!.path);
    session.rememberRefs(window, refs);
    ctx.emit({
      type: 'window-read',
      program: window.program,
      elements: read.richness.elements,
      read_ms: read.readMs,
    });
    return {
      fields: {
        text: rendered.text,
        program: window.program,
        title: window.title,
        pid: window.pid,
        interactable: read.richness.interactable,
        elements: read.richness.elements,
        rich: read.richness.rich,
        shown: rendered.shown,
        truncated: rendered.truncated || read.truncated,
        fingerprint: read.fingerprint,
        read_ms: read.readMs,
      },
      summary: `${window.program} "${window.title}": ${read.richness.interactable} interactable of ${read.richness.elements} elements, read in ${read.readMs} ms`,
      ...(rendered.truncated ? { truncated: true, narrow: 'Pass "filter" or raise "max_tokens".' } : {}),
    };
  },
});
