import { LiftError } from '../../contract/errors.js';
import { type Rate, rateLabel, toFrame, toSeconds } from './rate.js';

/**
 * A title card's plan: every time a whole frame, the text's block measured and centred, and the
 * keyframes each style means. The Lottie and ExtendScript writers and the checks all read this.
 */

export const STYLES = ['fade', 'slide_up', 'scale'] as const;
export type TitleStyle = (typeof STYLES)[number];

/**
 * Title safe, as Premiere Pro's and After Effects' guides draw it by default (SMPTE RP 218's
 * title-safe): the central 80% of the width and of the height, a tenth of the frame kept clear
 * on every side. (EBU R 95's 90% for 16:9 is looser; a title inside 80% is inside both.)
 */
export const TITLE_SAFE = 0.8;

/** The box behind the text reaches this share of the size beyond the text's ink on every side. */
export const BOX_PADDING = 0.3;

/** Lines are set this many sizes apart. */
export const LINE_HEIGHT = 1.2;

/** How far slide_up moves, as a share of the canvas height; how small scale starts, in percent. */
const SLIDE = 0.08;
const SCALE_FROM = 70;

/** At most a minute of title. */
export const MAX_TITLE_SECONDS = 60;

/** The font Chromium will draw with, as fontconfig matched it. */
export interface TitleFont {
  family: string;
  style: string;
  /** The PostScript name After Effects sets a text layer's font by. */
  postscript: string;
  file: string;
  bold: boolean;
}

/** A block of text measured in a font at a size: each line's advance, and the ink above and below. */
export interface Measured {
  lines: number[];
  /** Ink above the first line's baseline, in px. */
  ascent: number;
  /** Ink below the last line's baseline, in px. */
  descent: number;
  /** The font's ascender, in percent of the size (Lottie's fonts list). */
  fontAscent: number;
}

export type Measure = (size: number) => Measured;

export interface TitleRequest {
  name: string;
  text: string;
  font: string;
  weight: 'regular' | 'bold';
  size: number;
  colors: { text: string; background?: string | undefined; box?: string | undefined };
  canvas: { width: number; height: number };
  style: TitleStyle;
  timings: { in: number; hold: number; out: number };
}

export interface Key<T> {
  frame: number;
  value: T;
}

export interface TitlePlan {
  name: string;
  lines: string[];
  font: TitleFont;
  size: number;
  lineHeight: number;
  colors: TitleRequest['colors'];
  width: number;
  height: number;
  rate: Rate;
  style: TitleStyle;
  /** Frames: the in ends at `held`, the out starts at `leaves`, the last frame is `frames - 1`. */
  frames: number;
  held: number;
  leaves: number;
  /** The anchor (layer space): the centre of the text's ink, baseline of the first line at y 0. */
  anchor: [number, number];
  /** The block the title covers at the hold, box included, on the canvas. */
  block: { left: number; top: number; right: number; bottom: number };
  /** The box behind the text, centred on the anchor, when there is one. */
  box?: { width: number; height: number };
  fontAscent: number;
  opacity: Key<number>[];
  position: Key<[number, number]>[];
  scale: Key<[number, number]>[];
  snapped: Array<{ field: string; asked: number; seconds: number; frame: number }>;
}

/** The central title-safe rectangle of a canvas. */
export function safeArea(width: number, height: number) {
  const marginX = (width * (1 - TITLE_SAFE)) / 2;
  const marginY = (height * (1 - TITLE_SAFE)) / 2;
  return { left: marginX, top: marginY, right: width - marginX, bottom: height - marginY };
}

/** The block's size at a size: the widest line and the lines' ink, plus the box's padding. */
function blockSize(measured: Measured, size: number, lineCount: number, boxed: boolean) {
  const pad = boxed ? Math.ceil(size * BOX_PADDING) : 0;
  const width = Math.max(...measured.lines) + 2 * pad;
  const height = measured.ascent + (lineCount - 1) * size * LINE_HEIGHT + measured.descent + 2 * pad;
  return { width, height, pad };
}

/** The largest whole size at which the block fits title safe, or 0. */
function largestFit(measure: Measure, request: TitleRequest, lineCount: number): number {
  const safe = safeArea(request.canvas.width, request.canvas.height);
  const fits = (size: number) => {
    const block = blockSize(measure(size), size, lineCount, request.colors.box !== undefined);
    return block.width <= safe.right - safe.left && block.height <= safe.bottom - safe.top;
  };
  let low = 0;
  let high = request.size;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return low;
}

function frameOf(
  field: string,
  seconds: number,
  rate: Rate,
  least: number,
  snapped: TitlePlan['snapped'],
): number {
  const frame = toFrame(seconds, rate);
  if (frame < least)
    throw new LiftError(
      'BAD_INPUT',
      `timings.${field}: ${seconds} s is ${frame} frame(s) at ${rateLabel(rate)} fps; it needs at least ${least}.`,
      {
        hint: `Give timings.${field} of at least ${toSeconds(least, rate).toFixed(3)} s.`,
        outcome: 'not_started',
        details: { field: `timings.${field}` },
      },
    );
  const exact = toSeconds(frame, rate);
  if (Math.abs(exact - seconds) > 1e-9)
    snapped.push({
      field: `timings.${field}`,
      asked: seconds,
      seconds: Math.round(exact * 1e6) / 1e6,
      frame,
    });
  return frame;
}

/**
 * Plans the title: the timings snapped to whole frames (in and out at least two, the hold at
 * least one), the text measured at the size and refused when its block does not fit title safe
 * (REQUEST_REFUSED naming the largest size that does), and the keyframes of the style.
 */
export function planTitle(request: TitleRequest, rate: Rate, font: TitleFont, measure: Measure): TitlePlan {
  const snapped: TitlePlan['snapped'] = [];
  const inFrames = frameOf('in', request.timings.in, rate, 2, snapped);
  const holdFrames = frameOf('hold', request.timings.hold, rate, 1, snapped);
  const outFrames = frameOf('out', request.timings.out, rate, 2, snapped);
  const frames = inFrames + holdFrames + outFrames;
  const limit = Math.floor((MAX_TITLE_SECONDS * rate.num) / rate.den);
  if (frames > limit)
    throw new LiftError('BAD_INPUT', `timings: in, hold and out add up to ${frames} frames, over a minute.`, {
      hint: `Keep in + hold + out within ${MAX_TITLE_SECONDS} s.`,
      outcome: 'not_started',
      details: { field: 'timings' },
    });

  const lines = request.text.split('\n');
  const { width, height } = request.canvas;
  const boxed = request.colors.box !== undefined;
  const measured = measure(request.size);
  const block = blockSize(measured, request.size, lines.length, boxed);
  const safe = safeArea(width, height);
  if (block.width > safe.right - safe.left || block.height > safe.bottom - safe.top) {
    const largest = largestFit(measure, request, lines.length);
    throw new LiftError(
      'REQUEST_REFUSED',
      `At ${request.size} px in ${font.family}${boxed ? ', boxed,' : ''} the title is ${Math.ceil(block.width)}x${Math.ceil(block.height)} px; title safe (the central ${TITLE_SAFE * 100}% of ${width}x${height}) is ${Math.floor(safe.right - safe.left)}x${Math.floor(safe.bottom - safe.top)}. Nothing was written.`,
      {
        hint:
          largest > 0
            ? `The largest size that fits is ${largest} px: give size ${largest} or less, or shorten the text or break it into two lines.`
            : 'No size fits: shorten the text.',
        outcome: 'not_started',
        details: { field: 'size', largest },
      },
    );
  }

  const lineHeight = request.size * LINE_HEIGHT;
  // The ink runs from -ascent (first line) to (lines - 1) * lineHeight + descent (last line).
  const inkTop = -measured.ascent;
  const inkBottom = (lines.length - 1) * lineHeight + measured.descent;
  const anchor: [number, number] = [0, (inkTop + inkBottom) / 2];
  const centre: [number, number] = [width / 2, height / 2];
  const held = inFrames;
  const leaves = inFrames + holdFrames;
  const last = frames - 1;
  const keys = <T>(from: T, at: T, to: T): Key<T>[] => [
    { frame: 0, value: from },
    { frame: held, value: at },
    { frame: leaves, value: at },
    { frame: last, value: to },
  ];
  const still = <T>(value: T): Key<T>[] => [{ frame: 0, value }];
  const rise = Math.round(height * SLIDE);
  const plan: TitlePlan = {
    name: request.name,
    lines,
    font,
    size: request.size,
    lineHeight,
    colors: request.colors,
    width,
    height,
    rate,
    style: request.style,
    frames,
    held,
    leaves,
    anchor,
    block: {
      left: centre[0] - block.width / 2,
      top: centre[1] - block.height / 2,
      right: centre[0] + block.width / 2,
      bottom: centre[1] + block.height / 2,
    },
    fontAscent: measured.fontAscent,
    opacity: keys(0, 100, 0),
    position:
      request.style === 'slide_up'
        ? keys<[number, number]>([centre[0], centre[1] + rise], centre, [centre[0], centre[1] - rise])
        : still(centre),
    scale:
      request.style === 'scale'
        ? keys<[number, number]>([SCALE_FROM, SCALE_FROM], [100, 100], [SCALE_FROM, SCALE_FROM])
        : still<[number, number]>([100, 100]),
    snapped,
  };
  if (boxed) plan.box = { width: block.width, height: block.height };
  return plan;
}

/** "#ff8800" as red, green and blue from 0 to 1. */
export function rgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((offset) => Number.parseInt(hex.slice(offset, offset + 2), 16) / 255) as [
    number,
    number,
    number,
  ];
}
