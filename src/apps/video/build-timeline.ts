import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { VIDEO_PROGRAMS_HINT } from './programs.js';
import { MAX_TIMELINE_SECONDS, RATES_HELD } from './timeline.js';

const seconds = (what: string) => z.number().min(0).max(86_400).optional().describe(what);

const FileSchema = (what: string) =>
  z
    .string()
    .min(1)
    .max(1000)
    .describe(`Path of ${what}, inside the working folder (or the roots the operator set for video).`);

const ClipSchema = z.strictObject({
  file: FileSchema('a video file ffmpeg can decode'),
  in: seconds('Where in the file the clip starts, in seconds; default 0. Snapped to the nearest frame.'),
  out: seconds(
    'Where in the file it stops, in seconds (that frame not included); default the end of the file. Snapped to the nearest frame; past the end of the file is refused.',
  ),
});

const MusicSchema = z.strictObject({
  file: FileSchema('an audio file (or a video with sound)'),
  in: seconds(
    'Where in the file the music starts, in seconds; default 0. It plays from the start of the timeline and is cut at its end.',
  ),
});

export const BuildTimelineInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(80)
    .describe("The timeline's name in every file; the files are named after it (as a slug)."),
  clips: z
    .array(ClipSchema)
    .min(1)
    .max(50)
    .describe('The clips in timeline order, back to back from frame 0.'),
  music: MusicSchema.optional().describe('Music on an audio track under the clips.'),
  fps: z
    .union([
      z.number().min(1).max(120).describe('Frames a second: 23.976, 24, 25, 29.97 or 30.'),
      z
        .string()
        .regex(/^\d{1,6}(\/\d{1,5})?$/)
        .describe('An exact rate as a fraction, e.g. "30000/1001" (29.97) or "25".'),
    ])
    .describe('The timeline\'s frame rate; 29.97 and "30000/1001" are the same exact rate.'),
  canvas: z
    .strictObject({
      width: z.number().int().min(16).max(7680).multipleOf(2).describe('Pixels across, even.'),
      height: z.number().int().min(16).max(4320).multipleOf(2).describe('Pixels down, even.'),
    })
    .default({ width: 1920, height: 1080 })
    .describe('The frame size of the sequence and the render; default 1920x1080.'),
  request_id: RequestIdSchema.optional(),
});

export const buildTimeline = defineTool({
  name: 'build_timeline',
  title: 'Build an edit timeline for four editors',
  description: `Lays clips back to back on one video track, with optional music under them from the start, every time snapped to the frame grid of fps (29.97 is exactly 30000/1001), and writes the same timeline as Premiere Pro XML (xmeml), Final Cut Pro FCPXML 1.10, a CMX 3600 EDL and OpenTimelineIO JSON, plus an MLT file that melt renders. The clips' own sound is not used. Then it checks: each file parsed back has every clip at the same frames, all are the same length, every time is a whole frame; melt renders the MLT (the render is returned), ffprobe counts the expected frames, and ffmpeg's scene-change filter finds each cut within one frame. Returns the files, the length in frames and timecode, each clip's frames, and the times snapping moved. A clip's out past the end of its file is BAD_INPUT; a rate one of the formats cannot hold (all five hold ${RATES_HELD}) is REQUEST_REFUSED. At most ${MAX_TIMELINE_SECONDS / 60} minutes; times out after 600 s.`,
  group: 'video',
  rung: 'file',
  ladder: {
    ruledOut: ['api', 'ui'],
    climb:
      "Each editor's own interchange file is written; Debian's melt renders the MLT one from its command line.",
  },
  input: BuildTimelineInput,
  output: z.strictObject({
    name: z.string().describe("The timeline's name."),
    fps: z.string().describe('The exact rate as a fraction, e.g. "30000/1001".'),
    frames: z.number().int().describe("The sequence's length in frames."),
    timecode: z.string().describe('Its length as non-drop timecode HH:MM:SS:FF.'),
    clips: z
      .array(
        z.strictObject({
          name: z.string().describe("The clip's file name."),
          start: z.number().int().describe('First timeline frame.'),
          end: z.number().int().describe('Timeline frame after its last.'),
          in: z.number().int().describe("First source frame, at the timeline's rate."),
        }),
      )
      .describe('Each clip where it was placed, music last.'),
    snapped: z
      .array(
        z.strictObject({
          field: z.string().describe('The input time that moved, e.g. clips[1].in.'),
          asked: z.number().describe('Seconds asked.'),
          seconds: z.number().describe('Seconds of the frame it moved to.'),
          frame: z.number().int().describe('That frame.'),
        }),
      )
      .describe('Times that were not on the frame grid, and where each went (the first 20).'),
  }),
  errors: {
    NOT_FOUND: { hint: 'A clip or the music names no file. Give the path of an existing media file.' },
    BAD_INPUT: {
      hint: "A clip is past the end of its file, holds no whole frame, or is not media ffmpeg reads; the message names the field and the file's length.",
    },
    REQUEST_REFUSED: {
      hint: `One of the formats cannot hold that frame rate; nothing was written. Use ${RATES_HELD}.`,
    },
    PROGRAM_FAILED: { hint: VIDEO_PROGRAMS_HINT },
  },
  effect: {
    class: 'reversible',
    repeat: 'A second identical call writes the same files again (and renders again).',
  },
  timeout: {
    deadlineMs: 600_000,
    settle:
      'Look in the output folder build_timeline/ for NAME.xml, NAME.fcpxml, NAME.edl, NAME.otio, NAME.mlt and NAME.mp4.',
  },
  paths: (input) => [
    ...input.clips.map((clip, index) => ({
      path: clip.file,
      scope: { family: 'video', what: `clips[${index}].file` },
    })),
    ...(input.music ? [{ path: input.music.file, scope: { family: 'video', what: 'music.file' } }] : []),
  ],
  example: {
    name: 'Launch teaser',
    fps: 29.97,
    canvas: { width: 1920, height: 1080 },
    clips: [
      { file: 'footage/intro.mp4', in: 0, out: 2.5 },
      { file: 'footage/product.mp4', in: 4, out: 7.2 },
    ],
    music: { file: 'footage/theme.m4a' },
  },
  async run(input, ctx) {
    // The writers, readers and programs load when a timeline is first built.
    const { timelineBuild } = await import('./timeline-build.js');
    return timelineBuild(input, ctx);
  },
});
