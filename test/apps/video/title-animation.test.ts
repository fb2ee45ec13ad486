import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptCheck } from '../../../src/apps/video/jsx-checks.js';
import { titlePlan } from '../../../src/apps/video/title-build.js';
import { lottieTransform, titleChecks } from '../../../src/apps/video/title-checks.js';
import { tools } from '../../../src/apps/video/tools.js';
import type { Envelope, SuccessEnvelope } from '../../../src/contract/envelope.js';
import { isLiftError } from '../../../src/contract/errors.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';

function success(envelope: Envelope): SuccessEnvelope {
  if (!('checks' in envelope)) throw new Error(`expected a result, got ${JSON.stringify(envelope)}`);
  return envelope;
}

const CHECKS = ['lottie_renders', 'frames_as_style', 'text_in_safe_area', 'jsx_builds_same_comp'];
const limits = () => ({ deadline: Date.now() + 60_000, signal: new AbortController().signal });
const verdicts = (checks: Array<{ name: string; passed: boolean }>) =>
  Object.fromEntries(checks.map((check) => [check.name, check.passed]));

/** The request the tool fills in from a call (its defaults), for planning again here. */
const FADE = {
  name: 'Opening title',
  text: 'The Long Road',
  font: 'DejaVu Sans',
  weight: 'bold' as const,
  size: 72,
  colors: { text: '#ffffff' },
  canvas: { width: 960, height: 540 },
  fps: 29.97,
  style: 'fade' as const,
  timings: { in: 0.5, hold: 1, out: 0.5 },
};

describe('build_title_animation', () => {
  const work = tempDir('lift-title-');
  const output = join(work.path, '.lift', 'out', 'build_title_animation');
  let runtime: Runtime;
  let fade: SuccessEnvelope;
  beforeAll(() => {
    runtime = new Runtime({ home: join(work.path, '.lift'), workingDir: work.path, tools });
  });
  afterAll(async () => {
    await runtime.close();
    work.remove();
  });

  it('writes a fade title as Lottie JSON and a .jsx on the 30000/1001 grid, and lottie-web plays it as planned', async () => {
    fade = success(await runtime.invoke('build_title_animation', { ...FADE, request_id: 'title-fade-0001' }));
    expect(fade.ok, JSON.stringify(fade.checks, null, 1)).toBe(true);
    expect(fade.checks.map((check) => check.name)).toEqual(CHECKS);
    // 0.5 s is 15 frames at 30000/1001 (0.5005 s), 1 s is 30: 15 + 30 + 15 = 60.
    expect(fade.fields).toMatchObject({
      fps: '30000/1001',
      frames: 60,
      keys: { in: 0, hold: 15, out: 45, last: 59 },
      font: { family: 'DejaVu Sans', style: 'Bold', postscript: 'DejaVuSans-Bold' },
    });
    expect((fade.fields.snapped as Array<{ field: string }>).map((snap) => snap.field)).toEqual([
      'timings.in',
      'timings.hold',
      'timings.out',
    ]);

    // The Lottie file, read here without the tool's readers.
    const lottie = JSON.parse(readFileSync(fade.files.lottie!, 'utf8'));
    expect(lottie).toMatchObject({ w: 960, h: 540, ip: 0, op: 60, fr: 30000 / 1001 });
    expect(lottie.fonts.list[0]).toMatchObject({ fName: 'DejaVuSans-Bold', fFamily: 'DejaVu Sans' });
    const text = lottie.layers.find((layer: { ty: number }) => layer.ty === 5);
    expect(text.t.d.k[0].s).toMatchObject({
      t: 'The Long Road',
      s: 72,
      f: 'DejaVuSans-Bold',
      j: 2,
      fc: [1, 1, 1],
    });
    expect(text.ks.o.k.map((key: { t: number; s: number[] }) => [key.t, key.s[0]])).toEqual([
      [0, 0],
      [15, 100],
      [45, 100],
      [59, 0],
    ]);
    expect(text.ks.o.k[0]).toMatchObject({ o: { x: [0.333], y: [0] }, i: { x: [0.667], y: [1] } });
    const jsx = readFileSync(fade.files.jsx!, 'utf8');
    expect(jsx).toContain(
      'app.project.items.addComp("Opening title", 960, 540, 1, 60 * 1001 / 30000, 30000 / 1001);',
    );
    expect(jsx).toContain('titleOpacity.setValueAtTime(45 * 1001 / 30000, 100);');
    for (const frame of ['first_frame', 'hold_frame', 'last_frame'])
      expect(existsSync(fade.files[frame]!)).toBe(true);
  }, 30_000);

  it('writes a boxed slide_up title that rises in and out, and passes every check', async () => {
    const slide = success(
      await runtime.invoke('build_title_animation', {
        name: 'Lower third',
        text: 'Ada Lovelace\nMathematician',
        size: 48,
        colors: { text: '#ffffff', box: '#203060' },
        canvas: { width: 960, height: 540 },
        fps: 25,
        style: 'slide_up',
        timings: { in: 0.4, hold: 1, out: 0.4 },
      }),
    );
    expect(slide.ok, JSON.stringify(slide.checks, null, 1)).toBe(true);
    expect(slide.checks.find((check) => check.name === 'frames_as_style')?.detail).toContain('mid-slide');
    const lottie = JSON.parse(readFileSync(slide.files.lottie!, 'utf8'));
    const position = lottie.layers[0].ks.p.k.map((key: { s: number[] }) => key.s[1]);
    // Below its place, in place, in place, above it: 8% of 540 is 43 px.
    expect(position).toEqual([313, 270, 270, 227]);
    expect(lottie.layers.map((layer: { nm: string }) => layer.nm)).toEqual(['Title', 'Box']);
  }, 30_000);

  it('fails the right check when the written files are changed and checked again', async () => {
    const plan = await titlePlan(FADE, limits());
    const json = JSON.parse(readFileSync(fade.files.lottie!, 'utf8'));
    const jsx = fade.files.jsx!;

    // Opacity 0 all along: nothing to see at the hold, so neither the style nor the safe area holds.
    const hidden = structuredClone(json);
    hidden.layers[0].ks.o = { a: 0, k: 0 };
    writeFileSync(join(work.path, 'hidden.json'), JSON.stringify(hidden));
    // Moved to the left edge: the title shows and fades, but outside title safe.
    const moved = structuredClone(json);
    moved.layers[0].ks.p = { a: 0, k: [120, 270, 0] };
    writeFileSync(join(work.path, 'moved.json'), JSON.stringify(moved));
    const [hiddenChecks, movedChecks] = await Promise.all([
      titleChecks({ lottie: join(work.path, 'hidden.json'), jsx }, plan, limits()),
      titleChecks({ lottie: join(work.path, 'moved.json'), jsx }, plan, limits()),
    ]);
    expect(verdicts(hiddenChecks)).toMatchObject({
      lottie_renders: true,
      frames_as_style: false,
      text_in_safe_area: false,
    });
    expect(hiddenChecks[1]!.detail).toContain('shows no pixel of the text colour');
    expect(verdicts(movedChecks)).toEqual({
      lottie_renders: true,
      frames_as_style: true,
      text_in_safe_area: false,
      // The script still has the planned position, which the changed Lottie file no longer has.
      jsx_builds_same_comp: false,
    });

    // The script's comp made narrower, and a key moved a frame: acorn's tree says so.
    const script = readFileSync(jsx, 'utf8')
      .replace('addComp("Opening title", 960,', 'addComp("Opening title", 640,')
      .replace('titleOpacity.setValueAtTime(45 *', 'titleOpacity.setValueAtTime(44 *');
    const check = await scriptCheck(script, plan, lottieTransform(json));
    expect(check.passed).toBe(false);
    expect(check.detail).toContain('the comp is 640x540, the title 960x540');
    expect(check.detail).toContain("the title layer's Opacity keys differ");
    const broken = await scriptCheck(
      'var comp = app.project.items.addComp("x", 960, 540,',
      plan,
      lottieTransform(json),
    );
    expect(broken.detail).toContain('acorn (ES3) did not parse the .jsx');
  }, 30_000);

  it('refuses text too large for title safe before anything is written, naming the largest size that fits', async () => {
    const refused = await runtime.invoke('build_title_animation', {
      ...FADE,
      name: 'Too wide',
      text: 'A title far too long for one line',
      size: 90,
    });
    if (!('error' in refused)) throw new Error('expected a refusal');
    expect(refused.error.code).toBe('REQUEST_REFUSED');
    expect(refused.error.message).toContain('title safe (the central 80% of 960x540) is 768x432');
    const largest = Number(/largest size that fits is (\d+) px/.exec(refused.error.hint ?? '')?.[1]);
    expect(largest).toBeGreaterThan(8);
    // The size named fits, one more does not.
    const request = { ...FADE, text: 'A title far too long for one line' };
    await expect(titlePlan({ ...request, size: largest }, limits())).resolves.toMatchObject({
      size: largest,
    });
    const over = await titlePlan({ ...request, size: largest + 1 }, limits()).catch((error) => error);
    expect(isLiftError(over) && over.code).toBe('REQUEST_REFUSED');
    expect(readdirSync(output).filter((file) => file.startsWith('too-wide'))).toEqual([]);

    const font = await runtime.invoke('build_title_animation', {
      ...FADE,
      name: 'No font',
      font: 'Comic Sans',
    });
    if (!('error' in font)) throw new Error('expected a refusal');
    expect(font.error.code).toBe('BAD_INPUT');
    expect(font.error.message).toContain("no font of the family 'Comic Sans' is installed");
  });

  it('answers a retry with the same request_id from the ledger without writing again', async () => {
    const before = statSync(fade.files.lottie!).mtimeMs;
    const again = success(
      await runtime.invoke('build_title_animation', { ...FADE, request_id: 'title-fade-0001' }),
    );
    expect(again.effect).toBe('existing');
    expect(again.summary).toMatch(/^Already done: /);
    expect(again.files).toEqual(fade.files);
    expect(statSync(fade.files.lottie!).mtimeMs).toBe(before);
  });
});
