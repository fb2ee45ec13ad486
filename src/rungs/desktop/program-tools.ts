import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { runWrapped } from '../cli/run-wrapped.js';
import { desktopSession } from './context.js';

export const startProgram = defineTool({
  name: 'start_program',
  title: 'Start a desktop program',
  description:
    "Starts a desktop program Lift knows (gnome-calculator, gucharmap, or one configured under settings.desktop.programs) on Lift's own display, never the user's, with its accessibility tree on, and waits until its window is readable. A program already running is left as it is. Returns its window title and pid; then use observe_window and act_window.",
  group: 'desktop',
  rung: 'ui',
  input: z.strictObject({
    program: z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,40}$/)
      .describe('Its command name: gnome-calculator, gucharmap, or one the operator configured.'),
    request_id: RequestIdSchema.optional(),
  }),
  output: z.object({
    program: z.string().describe('The program.'),
    title: z.string().describe('Its window title.'),
    pid: z.number().int().describe('Its process id.'),
    started: z.boolean().describe('False when it was already running.'),
  }),
  verifiedBy: 'the window appears on the accessibility bus',
  errors: {
    NOT_FOUND: { hint: 'Lift knows no program of that name; the hint lists the known ones.' },
    PROGRAM_FAILED: {
      hint: 'The program or the display could not start; the hint carries its error output.',
    },
  },
  effect: {
    class: 'reversible',
    repeat:
      'A second call finds the program running and starts nothing; with the same request_id it returns the first result.',
  },
  timeout: { deadlineMs: 60_000, settle: 'observe_window with the same program' },
  example: { program: 'gnome-calculator' },
  run: async (input, ctx) => {
    const session = await desktopSession(ctx);
    ctx.markStarted();
    const { window, started } = await session.startProgram(input.program, ctx.deadline - 500);
    // A run begins here: what act_window does from now on is what learn_skill compiles.
    if (started) session.journal.length = 0;
    return {
      fields: { program: window.program, title: window.title, pid: window.pid, started },
      summary: started
        ? `${window.program} started: window "${window.title}" (pid ${window.pid})`
        : `${window.program} was already running: window "${window.title}" (pid ${window.pid})`,
      effect: started ? 'changed' : 'no_change',
    };
  },
});

export const readClipboard = defineTool({
  name: 'read_clipboard',
  title: "Read the desktop session's clipboard",
  description:
    "Reads the text on the clipboard of Lift's desktop display (what a program copied), through Debian's xclip on the same display. Use it to check that a copy worked. Returns the text and its length.",
  group: 'desktop',
  rung: 'ui',
  input: z.strictObject({}),
  output: z.object({
    text: z.string().describe('The clipboard text.'),
    chars: z.number().int().describe('Its length in characters.'),
  }),
  verifiedBy: 'xclip -o -selection clipboard on the session display',
  errors: { PROGRAM_FAILED: { hint: 'xclip failed (is the clipboard empty?); copy something first.' } },
  effect: { class: 'read' },
  timeout: { deadlineMs: 10_000 },
  example: {},
  run: async (_input, ctx) => {
    const session = await desktopSession(ctx);
    const display = await session.display();
    const result = await runWrapped({
      program: '/usr/bin/xclip',
      args: ['-o', '-selection', 'clipboard'],
      deadline: ctx.deadline - 200,
      env: display.env,
      path: '/usr/bin:/bin',
      home: display.home,
      input: '',
    });
    const text = result.stdout.text;
    return {
      fields: { text, chars: [...text].length },
      summary: `The clipboard holds ${[...text].length} characters`,
    };
  },
});
