import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMlt } from '../../../src/apps/video/mlt.js';
import { DEBIAN_VIDEO } from '../../../src/apps/video/programs.js';
import { renderChecks } from '../../../src/apps/video/render-checks.js';
import type { PlacedClip, Timeline } from '../../../src/apps/video/timeline.js';
import { tools } from '../../../src/apps/video/tools.js';
import type { Envelope, SuccessEnvelope } from '../../../src/contract/envelope.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';
import { makeClip, makeTone, probeRender } from './media.js';

function success(envelope: Envelope): SuccessEnvelope {
  if (!('checks' in envelope)) throw new Error(`expected a result, got ${JSON.stringify(envelope)}`);
  return envelope;
}

const CHECKS = [
  'clips_in_xmeml',
  'clips_in_fcpxml',
  'clips_in_edl',
  'clips_in_otio',
  'clips_in_mlt',
  'same_length',
  'on_frame_grid',
  'melt_renders',
  'rendered_frames',
  'cuts_at_frames',
];

describe('build_timeline', () => {
  // The media is in the working folder, Lift's home beside it.
  const work = tempDir('lift-video-');
  const media = (name: string) => join(work.path, name);
  let runtime: Runtime;
  beforeAll(() => {
    makeClip(media('red.mp4'), 'red', 3);
    // A dark green as bright as the red once rendered: ffmpeg's scene measure on the YUV pictures
    // scores the cut 0.05, under its threshold; on RGB it is 1.
    makeClip(media('green.mp4'), '0x004c00', 3);
    makeClip(media('blue.mp4'), 'blue', 3);
    makeTone(media('tone.m4a'), 6);
    runtime = new Runtime({ home: join(work.path, '.lift'), workingDir: work.path, tools });
  }, 60_000);
  afterAll(async () => {
    await runtime.close();
    work.remove();
  });

  it('writes one 29.97 timeline five ways on the 30000/1001 grid, and melt renders it with the cuts where planned', async () => {
    const envelope = success(
      await runtime.invoke('build_timeline', {
        name: 'Colour test',
        fps: 29.97,
        canvas: { width: 320, height: 180 },
        clips: [
          { file: 'red.mp4', in: 0.31, out: 1.5 },
          { file: 'green.mp4', out: 1 },
          { file: 'blue.mp4', in: 1 },
        ],
        music: { file: 'tone.m4a', in: 0.5 },
      }),
    );
    expect(envelope.ok, JSON.stringify(envelope.checks, null, 1)).toBe(true);
    expect(envelope.checks.map((check) => check.name)).toEqual(CHECKS);
    // At 30000/1001: 0.31 s is frame 9, 1.5 s frame 45 (36 frames); 1 s is frame 30 (30 frames);
    // the blue file's 3 s hold 89 whole frames, from 30: 59. 36 + 30 + 59 = 125.
    expect(envelope.fields).toMatchObject({
      fps: '30000/1001',
      frames: 125,
      timecode: '00:00:04:05',
      clips: [
        { name: 'red.mp4', start: 0, end: 36, in: 9 },
        { name: 'green.mp4', start: 36, end: 66, in: 0 },
        { name: 'blue.mp4', start: 66, end: 125, in: 30 },
        { name: 'tone.m4a', start: 0, end: 125, in: 15 },
      ],
    });
    expect((envelope.fields.snapped as Array<{ field: string }>).map((snap) => snap.field)).toEqual([
      'clips[0].in',
      'clips[0].out',
      'clips[1].out',
      'clips[2].in',
      'music.in',
    ]);
    expect(envelope.checks.find((check) => check.name === 'cuts_at_frames')?.detail).toContain(
      'planned 36, 66',
    );

    // The files themselves, read here without the tool's readers.
    const edl = readFileSync(envelope.files.edl!, 'utf8');
    expect(edl).toContain('FCM: NON-DROP FRAME');
    expect(edl).toMatch(/^001 {2}AX {7}V {5}C {8}00:00:00:09 00:00:01:15 00:00:00:00 00:00:01:06$/m);
    expect(edl).toMatch(/^003 .* 00:00:01:00 00:00:02:29 00:00:02:06 00:00:04:05$/m);
    expect(edl).toMatch(/^004 {2}AX {7}A {5}C {8}00:00:00:15 00:00:04:20 00:00:00:00 00:00:04:05$/m);
    const fcpxml = readFileSync(envelope.files.fcpxml!, 'utf8');
    expect(fcpxml).toContain('<fcpxml version="1.10">');
    expect(fcpxml).toContain('frameDuration="1001/30000s"');
    expect(fcpxml).toContain('offset="36036/30000s" start="0s" duration="30030/30000s"');
    const xmeml = readFileSync(envelope.files.xmeml!, 'utf8');
    expect(xmeml).toContain('<timebase>30</timebase><ntsc>TRUE</ntsc>');
    expect(xmeml).toMatch(/<start>66<\/start>\s*<end>125<\/end>\s*<in>30<\/in>\s*<out>89<\/out>/);
    // Each file element describes the file as it is: 25 fps, 75 frames.
    expect(xmeml).toMatch(
      /<pathurl>[^<]*\/blue\.mp4<\/pathurl>\s*<rate><timebase>25<\/timebase><ntsc>FALSE<\/ntsc><\/rate>\s*<duration>75<\/duration>/,
    );
    const otio = JSON.parse(readFileSync(envelope.files.otio!, 'utf8'));
    const red = otio.tracks.children[0].children[0].source_range;
    expect(red.start_time).toEqual({ OTIO_SCHEMA: 'RationalTime.1', rate: 30000 / 1001, value: 9 });
    expect(red.duration.value).toBe(36);
    expect(readFileSync(envelope.files.mlt!, 'utf8')).toContain(
      'frame_rate_num="30000" frame_rate_den="1001"',
    );

    // The render, measured again here.
    expect(probeRender(envelope.files.render!)).toEqual({ frames: 125, rate: '30000/1001', sound: true });
  }, 90_000);

  it('refuses a clip whose out lies past the end of its file, naming the field and the length', async () => {
    const refused = await runtime.invoke('build_timeline', {
      name: 'Too long',
      fps: 25,
      canvas: { width: 320, height: 180 },
      clips: [{ file: 'red.mp4' }, { file: 'green.mp4', in: 1, out: 3.5 }],
    });
    expect(refused.ok).toBe(false);
    if (!('error' in refused)) throw new Error('expected an error');
    expect(refused.error.code).toBe('BAD_INPUT');
    expect(refused.error.message).toContain(
      'clips[1].out: 3.5 s is past the end of green.mp4, which lasts 3 s.',
    );
  });

  it('refuses a rate a format cannot hold, before anything is written', async () => {
    for (const [fps, why] of [
      [60, 'a CMX 3600 EDL counts timecode at 24, 25 or 30 frames a second'],
      [12.5, 'Premiere XML counts frames at a whole timebase'],
      ['25/2', 'Premiere XML counts frames at a whole timebase'],
    ] as const) {
      const refused = await runtime.invoke('build_timeline', {
        name: 'Odd rate',
        fps,
        canvas: { width: 320, height: 180 },
        clips: [{ file: 'red.mp4' }],
      });
      if (!('error' in refused)) throw new Error(`expected a refusal at ${fps}`);
      expect(refused.error.code).toBe('REQUEST_REFUSED');
      expect(refused.error.message).toContain(why);
    }
    const written = join(work.path, '.lift', 'output', 'build_timeline');
    const files = existsSync(written) ? readdirSync(written) : [];
    expect(files.filter((file) => file.startsWith('odd-rate') || file.startsWith('too-long'))).toEqual([]);
  });

  it('fails the render checks when the render does not have the cuts the timeline plans', async () => {
    const shot = (file: string, start: number): PlacedClip => ({
      name: file,
      path: media(file),
      in: 0,
      out: 25,
      start,
      end: start + 25,
      mediaFrames: 75,
      native: { rate: { num: 25, den: 1 }, frames: 75 },
      video: true,
      audio: false,
    });
    const written: Timeline = {
      name: 'Two shots',
      rate: { num: 25, den: 1 },
      width: 320,
      height: 180,
      clips: [shot('red.mp4', 0), shot('green.mp4', 25)],
      music: undefined,
      frames: 50,
    };
    const mlt = media('two-shots.mlt');
    writeFileSync(mlt, writeMlt(written));
    // The plan says the green shot starts six frames later than the MLT file has it.
    const planned: Timeline = { ...written, clips: [written.clips[0]!, { ...written.clips[1]!, start: 31 }] };
    const limits = { deadline: Date.now() + 60_000, signal: new AbortController().signal };
    const checks = await renderChecks(mlt, media('two-shots.mp4'), planned, limits, DEBIAN_VIDEO);
    expect(checks.map((check) => [check.name, check.passed])).toEqual([
      ['melt_renders', true],
      ['rendered_frames', true],
      ['cuts_at_frames', false],
    ]);
    expect(checks[2]!.detail).toContain('planned 31, found -');
    expect(checks[2]!.detail).toContain('other changes inside shots at 25');
  }, 60_000);
});
