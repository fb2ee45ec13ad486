import type { ToolContext } from '../../contract/context.js';
import type { ToolResult } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import { writeFileAtomic } from '../../rungs/file/atomic.js';
import { writeExtendScript } from './extendscript.js';
import { writeLottie } from './lottie.js';
import { parseRate, type Rate, rateLabel, rateText, toSeconds } from './rate.js';
import { planTitle, type TitlePlan, type TitleRequest } from './title.js';
import { titleChecks } from './title-checks.js';
import { findFont, measurer } from './title-font.js';

/** Debian's programs the title needs beside Chromium (Lift's UI rung launches /usr/bin/chromium). */
export interface TitlePrograms {
  fcMatch: string;
}

export const DEBIAN_TITLE: TitlePrograms = { fcMatch: '/usr/bin/fc-match' };

export interface TitleFields {
  name: string;
  fps: string;
  frames: number;
  seconds: number;
  keys: { in: number; hold: number; out: number; last: number };
  font: { family: string; style: string; postscript: string };
  block: { left: number; top: number; right: number; bottom: number };
  snapped: Array<{ field: string; asked: number; seconds: number; frame: number }>;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'title';

/** The exact rate asked, or BAD_INPUT before anything is measured or written. */
function rateOf(fps: number | string): Rate {
  const rate = parseRate(fps);
  if (!rate || rate.num / rate.den > 120 || rate.num / rate.den < 1)
    throw new LiftError('BAD_INPUT', `fps: ${fps} is not a frame rate this tool knows exactly.`, {
      hint: 'Give 23.976, 24, 25, 29.97, 30, 50, 59.94 or 60, or an exact fraction such as "30000/1001".',
      outcome: 'not_started',
      details: { field: 'fps' },
    });
  return rate;
}

/** The plan of a request: its rate, its font as fontconfig finds it, its text measured in that font. */
export async function titlePlan(
  request: TitleRequest & { fps: number | string },
  ctx: Pick<ToolContext, 'deadline' | 'signal'>,
  programs: TitlePrograms = DEBIAN_TITLE,
): Promise<TitlePlan> {
  const rate = rateOf(request.fps);
  const font = await findFont(request.font, request.weight === 'bold', programs.fcMatch, ctx);
  return planTitle(request, rate, font, await measurer(font, request.text.split('\n')));
}

const round = (value: number) => Math.round(value);

/**
 * Builds the title: planned (a font that is not installed, a timing under its frames or a text
 * too large for title safe are refused before anything is written), written as Lottie JSON and
 * as an ExtendScript, then both read back from disk by readers Lift did not write.
 */
export async function titleBuild(
  request: TitleRequest & { fps: number | string },
  ctx: ToolContext,
  programs: TitlePrograms = DEBIAN_TITLE,
): Promise<ToolResult<TitleFields>> {
  const plan = await titlePlan(request, ctx, programs);
  const stem = slug(request.name);
  const files = { lottie: ctx.outputFile(`${stem}.json`), jsx: ctx.outputFile(`${stem}.jsx`) };
  const frames = {
    first: ctx.outputFile(`${stem}.first.png`),
    hold: ctx.outputFile(`${stem}.hold.png`),
    last: ctx.outputFile(`${stem}.last.png`),
  };
  const lottie = writeLottie(plan);
  const script = writeExtendScript(plan);
  ctx.markStarted();
  await writeFileAtomic(files.lottie, lottie, { mode: 0o600 });
  await writeFileAtomic(files.jsx, script, { mode: 0o600 });
  ctx.emit({ type: 'progress-reported', stage: 'render', message: 'lottie-web draws the title in Chromium' });
  const checks = await titleChecks(files, plan, ctx, frames);

  const passed = checks.filter((check) => check.passed).length;
  const seconds = toSeconds(plan.frames, plan.rate);
  return {
    fields: {
      name: plan.name,
      fps: rateText(plan.rate),
      frames: plan.frames,
      seconds: Math.round(seconds * 1e6) / 1e6,
      keys: { in: 0, hold: plan.held, out: plan.leaves, last: plan.frames - 1 },
      font: { family: plan.font.family, style: plan.font.style, postscript: plan.font.postscript },
      block: {
        left: round(plan.block.left),
        top: round(plan.block.top),
        right: round(plan.block.right),
        bottom: round(plan.block.bottom),
      },
      snapped: plan.snapped,
    },
    summary: `Title ${plan.name} (${plan.style}, ${plan.lines.length} line(s) in ${plan.font.family} ${plan.font.style} ${plan.size} px): ${plan.frames} frames (${Math.round(seconds * 1000) / 1000} s) at ${rateLabel(plan.rate)} fps, ${plan.width}x${plan.height}, written as Lottie JSON and an After Effects script; ${plan.snapped.length} time(s) snapped to the frame grid. Checks: ${passed} of ${checks.length} passed.`,
    files: { ...files, first_frame: frames.first, hold_frame: frames.hold, last_frame: frames.last },
    checks,
    verifiedBy:
      'lottie-web played the JSON in Chromium and @napi-rs/canvas read its frames (first, hold, last and the middles of the in and out); acorn parsed the .jsx as ES3 and acorn-walk found its comp and keyframes',
  };
}
