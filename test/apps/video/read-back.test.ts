import { describe, expect, it } from 'vitest';
import { readEdl, writeEdl } from '../../../src/apps/video/edl.js';
import { readFcpxml, writeFcpxml } from '../../../src/apps/video/fcpxml.js';
import { readMlt, writeMlt } from '../../../src/apps/video/mlt.js';
import { readOtio, writeOtio } from '../../../src/apps/video/otio.js';
import { parseRate, type Rate } from '../../../src/apps/video/rate.js';
import type { Format, PlacedClip, Timeline } from '../../../src/apps/video/timeline.js';
import { type ReadBack, timelineChecks } from '../../../src/apps/video/timeline-checks.js';
import { readXmeml, writeXmeml } from '../../../src/apps/video/xmeml.js';

const rate = parseRate('24000/1001') as Rate;

const clip = (name: string, start: number, end: number, from: number): PlacedClip => ({
  name,
  path: `/media/shots & takes/${name}`,
  in: from,
  out: from + end - start,
  start,
  end,
  mediaFrames: 500,
  native: { rate: { num: 25, den: 1 }, frames: 521 },
  video: true,
  audio: false,
});

/** A 23.976 timeline of three shots and music, with a name and paths that need escaping. */
const timeline: Timeline = {
  name: 'Cut <1> & "final"',
  rate,
  width: 1920,
  height: 1080,
  clips: [clip('a.mov', 0, 48, 12), clip('b.mov', 48, 100, 0), clip('c.mov', 100, 172, 240)],
  music: { ...clip('song.wav', 0, 172, 24), native: undefined, video: false, audio: true },
  frames: 172,
};

const WRITE: Record<Format, (timeline: Timeline) => string> = {
  xmeml: writeXmeml,
  fcpxml: writeFcpxml,
  edl: writeEdl,
  otio: writeOtio,
  mlt: writeMlt,
};

async function readAll(texts: Record<Format, string>): Promise<ReadBack> {
  const read = async (format: Format, text: string) => {
    switch (format) {
      case 'xmeml':
        return readXmeml(text, rate);
      case 'fcpxml':
        return readFcpxml(text, rate);
      case 'edl':
        return readEdl(text, rate);
      case 'otio':
        return readOtio(text, rate);
      case 'mlt':
        return readMlt(text, rate);
    }
  };
  const entries = await Promise.all(
    (Object.keys(WRITE) as Format[]).map(async (format) => {
      try {
        return [format, await read(format, texts[format])] as const;
      } catch (error) {
        return [format, { error: (error as Error).message }] as const;
      }
    }),
  );
  return Object.fromEntries(entries) as ReadBack;
}

const written = () =>
  Object.fromEntries(
    (Object.keys(WRITE) as Format[]).map((format) => [format, WRITE[format](timeline)]),
  ) as Record<Format, string>;

const failed = async (texts: Record<Format, string>) =>
  timelineChecks(timeline, await readAll(texts))
    .filter((check) => !check.passed)
    .map((check) => check.name);

describe('the five timeline files read back', () => {
  it('hold every clip at its frames, the same length and only whole frames, as written', async () => {
    const checks = timelineChecks(timeline, await readAll(written()));
    expect(checks.filter((check) => !check.passed)).toEqual([]);
    expect(checks).toHaveLength(7);
  });

  it('catch a clip moved by one frame in one file only', async () => {
    const texts = written();
    // b.mov starts at frame 48: 48 * 1001/24000 s. One frame later in FCPXML only.
    texts.fcpxml = texts.fcpxml.replace('offset="48048/24000s"', 'offset="49049/24000s"');
    expect(await failed(texts)).toEqual(['clips_in_fcpxml']);
  });

  it('catch a time between two frames', async () => {
    const texts = written();
    texts.fcpxml = texts.fcpxml.replace('offset="48048/24000s"', 'offset="48049/24000s"');
    expect(await failed(texts)).toEqual(['clips_in_fcpxml', 'on_frame_grid']);
  });

  it('catch an EDL event whose record times disagree with its source times', async () => {
    const texts = written();
    // c.mov records 00:00:04:04 to 00:00:07:04 (frames 100 to 172 at timecode base 24).
    expect(texts.edl).toContain('00:00:04:04 00:00:07:04');
    texts.edl = texts.edl.replace('00:00:04:04 00:00:07:04', '00:00:04:04 00:00:07:05');
    expect(await failed(texts)).toEqual(['clips_in_edl', 'same_length', 'on_frame_grid']);
  });

  it('catch a sequence of another length, an OTIO time at another rate, and a file that is not XML', async () => {
    const texts = written();
    texts.xmeml = texts.xmeml.replace('<duration>172</duration>', '<duration>173</duration>');
    texts.otio = texts.otio.replaceAll('"rate": 23.976023976023978', '"rate": 23.976');
    texts.mlt = texts.mlt.replace('</mlt>', '');
    expect(await failed(texts)).toEqual(['clips_in_otio', 'clips_in_mlt', 'same_length', 'on_frame_grid']);
  });
});
