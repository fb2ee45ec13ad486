import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { MAX_TITLE_SECONDS, STYLES, TITLE_SAFE } from './title.js';

const Color = (what: string) =>
  z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .describe(what);

const seconds = (what: string, fallback: number) =>
  z.number().min(0).max(MAX_TITLE_SECONDS).default(fallback).describe(what);

export const BuildTitleAnimationInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(80)
    .describe("The title's name in both files (the comp's name); the files are named after it (as a slug)."),
  text: z
    .string()
    .min(1)
    .max(80)
    .regex(/^[^\n\r\t]*\S[^\n\r\t]*(\n[^\n\r\t]*\S[^\n\r\t]*)?$/)
    .describe('The words on screen, one line or two split by a newline ("Launch Day\\nLift 1.0").'),
  font: z
    .string()
    .min(1)
    .max(60)
    .regex(/^[A-Za-z0-9 ]+$/)
    .default('DejaVu Sans')
    .describe('An installed font family, e.g. "DejaVu Sans" (the default) or "Liberation Sans".'),
  weight: z.enum(['regular', 'bold']).default('bold').describe('The face of the family; default bold.'),
  size: z.number().int().min(8).max(1000).describe('The text size in pixels (the em), e.g. 96 on 1920x1080.'),
  colors: z
    .strictObject({
      text: Color('The text colour as #rrggbb.').default('#ffffff'),
      background: Color('A full-frame colour behind everything; default none (transparent).').optional(),
      box: Color('A box behind the text, moving with it; default none.').optional(),
    })
    .default({ text: '#ffffff' })
    .describe('Colours as #rrggbb: the text (default white), and an optional background and box.'),
  canvas: z
    .strictObject({
      width: z.number().int().min(64).max(3840).describe('Pixels across.'),
      height: z.number().int().min(64).max(2160).describe('Pixels down.'),
    })
    .default({ width: 1920, height: 1080 })
    .describe('The frame size of both files; default 1920x1080.'),
  fps: z
    .union([
      z.number().min(1).max(120).describe('Frames a second, e.g. 25, 29.97 or 30.'),
      z
        .string()
        .regex(/^\d{1,6}(\/\d{1,5})?$/)
        .describe('An exact rate as a fraction, e.g. "30000/1001" (29.97).'),
    ])
    .default(30)
    .describe('The frame rate; default 30. 29.97 and "30000/1001" are the same exact rate.'),
  style: z
    .enum(STYLES)
    .default('fade')
    .describe(
      'How the title comes and goes: fade, slide_up (rises into place and on out) or scale (grows from 70%); each fades too.',
    ),
  timings: z
    .strictObject({
      in: seconds('Seconds the title takes to come in, from frame 0; default 0.5. At least 2 frames.', 0.5),
      hold: seconds('Seconds it stays still; default 3. At least 1 frame.', 3),
      out: seconds('Seconds it takes to go, ending on the last frame; default 0.5. At least 2 frames.', 0.5),
    })
    .default({ in: 0.5, hold: 3, out: 0.5 })
    .describe('In, hold and out, back to back, each snapped to the nearest frame; their sum is the length.'),
  request_id: RequestIdSchema.optional(),
});

export const buildTitleAnimation = defineTool({
  name: 'build_title_animation',
  title: 'Build a title animation for Lottie and After Effects',
  description: `Writes a centred title card (one or two lines in an installed font, an optional box and background) that comes in, holds and goes out (fade, slide_up or scale, with After Effects' Easy Ease), every time snapped to the frame grid of fps, as Lottie JSON (Bodymovin, for lottie-web and the players) and as an After Effects ExtendScript .jsx that builds the same comp with the same keyframes. Then it checks: lottie-web plays the JSON in Chromium, frame 0 and the last frame show no title and the hold shows it (pixels compared, the middles of the in and out moving as the style says), the title at the hold lies inside title safe (the central ${TITLE_SAFE * 100}% of width and height), and the .jsx parses as ES3 with the comp's size, length, rate and keyframes. Returns the files (and PNGs of the first, hold and last frames), the keyframes' frames and the times snapping moved. Text that does not fit title safe at the size is REQUEST_REFUSED naming the largest size that does; a font family not installed is BAD_INPUT. At most ${MAX_TITLE_SECONDS} s; times out after 120 s.`,
  group: 'video',
  rung: 'file',
  ladder: {
    ruledOut: ['api', 'ui'],
    climb:
      "Both files are the players' own formats, written whole; lottie-web in Debian's Chromium plays the Lottie file back.",
  },
  input: BuildTitleAnimationInput,
  verifiedBy:
    'lottie-web plays the Lottie file in Chromium and @napi-rs/canvas reads its frames; acorn parses the .jsx (file)',
  output: z.strictObject({
    name: z.string().describe("The title's name."),
    fps: z.string().describe('The exact rate as a fraction, e.g. "30000/1001".'),
    frames: z.number().int().describe('The length in frames (op of the Lottie file).'),
    seconds: z.number().describe('The length in seconds.'),
    keys: z
      .strictObject({
        in: z.number().int().describe('The frame the in starts (0).'),
        hold: z.number().int().describe('The frame the title is in place.'),
        out: z.number().int().describe('The frame the out starts.'),
        last: z.number().int().describe('The last frame, where the out ends.'),
      })
      .describe('The keyframes, in frames.'),
    font: z
      .strictObject({
        family: z.string().describe('The family fontconfig matched.'),
        style: z.string().describe('Its style, e.g. Bold.'),
        postscript: z.string().describe('Its PostScript name, which the .jsx sets.'),
      })
      .describe('The font both files name.'),
    block: z
      .strictObject({
        left: z.number().describe('Left edge in px.'),
        top: z.number().describe('Top edge in px.'),
        right: z.number().describe('Right edge in px.'),
        bottom: z.number().describe('Bottom edge in px.'),
      })
      .describe('Where the title (its box included) was planned at the hold.'),
    snapped: z
      .array(
        z.strictObject({
          field: z.string().describe('The timing that moved, e.g. timings.in.'),
          asked: z.number().describe('Seconds asked.'),
          seconds: z.number().describe('Seconds of the frame it moved to.'),
          frame: z.number().int().describe('That many frames.'),
        }),
      )
      .describe('Timings that were not whole frames, and where each went.'),
  }),
  errors: {
    BAD_INPUT: {
      hint: 'The font family is not installed, a timing is under its frames, or the rate is not exact; the message names the field.',
    },
    REQUEST_REFUSED: {
      hint: `The text at that size does not fit title safe (the central ${TITLE_SAFE * 100}% of the canvas); nothing was written. The message gives the largest size that fits.`,
    },
    PROGRAM_FAILED: {
      hint: 'fc-match (Debian package fontconfig) finds the font and Chromium (package chromium) plays the file; install them with bash scripts/setup.sh video.',
    },
  },
  effect: {
    class: 'reversible',
    repeat:
      'A second call with the same request_id answers from the ledger and writes nothing; without one it writes the same files again.',
  },
  timeout: {
    deadlineMs: 120_000,
    settle: 'Look in the output folder build_title_animation/ for NAME.json and NAME.jsx.',
  },
  example: {
    name: 'Launch title',
    text: 'Launch Day\nLift 1.0',
    size: 120,
    colors: { text: '#ffffff', box: '#203060' },
    fps: 25,
    style: 'slide_up',
    timings: { in: 0.5, hold: 2, out: 0.5 },
  },
  async run(input, ctx) {
    // The fonts, writers, the browser and the parsers load when a title is first built.
    const { titleBuild } = await import('./title-build.js');
    return titleBuild(input, ctx);
  },
});
