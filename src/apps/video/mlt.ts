import type { Rate } from './rate.js';
import type { ReadClip, ReadTimeline } from './read-back.js';
import type { PlacedClip, Timeline } from './timeline.js';
import { child, childrenNamed, type Element, escapeXml, parseXml } from './xml.js';

/**
 * An MLT XML document that Debian's `melt` renders: a profile at the canvas and the exact rate
 * (frame_rate_num/den), a playlist of the clips (track V1), a playlist of the music (A1, its
 * pictures hidden), and a mix transition so the music is heard. MLT's `out` is inclusive.
 */
function producer(clip: PlacedClip, id: string): string {
  return `  <producer id="${id}">
    <property name="resource">${escapeXml(clip.path)}</property>
    <property name="mlt_service">avformat</property>
  </producer>`;
}

const entry = (clip: PlacedClip, id: string) =>
  `    <entry producer="${id}" in="${clip.in}" out="${clip.out - 1}"/>`;

export function writeMlt(timeline: Timeline): string {
  const { rate, music } = timeline;
  const divisor = gcd(timeline.width, timeline.height);
  const producers = timeline.clips.map((clip, index) => producer(clip, `clip${index}`));
  if (music) producers.push(producer(music, 'music'));
  const tracks = ['    <track producer="V1"/>'];
  if (music) tracks.push('    <track producer="A1" hide="video"/>');
  const mix = music
    ? [
        '    <transition mlt_service="mix" a_track="0" b_track="1">',
        '      <property name="always_active">1</property>',
        '      <property name="sum">1</property>',
        '    </transition>',
      ]
    : [];
  return `<?xml version="1.0" encoding="utf-8"?>
<mlt LC_NUMERIC="C" title="${escapeXml(timeline.name)}" producer="timeline">
  <profile description="${timeline.width}x${timeline.height} ${rate.num}/${rate.den}" width="${timeline.width}" height="${timeline.height}" progressive="1" sample_aspect_num="1" sample_aspect_den="1" display_aspect_num="${timeline.width / divisor}" display_aspect_den="${timeline.height / divisor}" frame_rate_num="${rate.num}" frame_rate_den="${rate.den}" colorspace="709"/>
${producers.join('\n')}
  <playlist id="V1">
${timeline.clips.map((clip, index) => entry(clip, `clip${index}`)).join('\n')}
  </playlist>
${music ? `  <playlist id="A1">\n${entry(music, 'music')}\n  </playlist>\n` : ''}  <tractor id="timeline" in="0" out="${timeline.frames - 1}">
${[...tracks, ...mix].join('\n')}
  </tractor>
</mlt>
`;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Reads the MLT back: the profile's rate, each playlist entry as a clip (frames, `out` inclusive). */
export async function readMlt(text: string, rate: Rate): Promise<ReadTimeline> {
  const root = await parseXml(text);
  if (root.name !== 'mlt') throw new Error(`The root element is <${root.name}>, not <mlt>.`);
  const offGrid: string[] = [];
  const profile = child(root, 'profile');
  if (
    profile?.attributes.frame_rate_num !== String(rate.num) ||
    profile.attributes.frame_rate_den !== String(rate.den)
  )
    offGrid.push(
      `the profile's rate is ${profile?.attributes.frame_rate_num}/${profile?.attributes.frame_rate_den}`,
    );
  const whole = (value: string | undefined, where: string) => {
    if (value === undefined || !/^\d+$/.test(value)) {
      offGrid.push(`${where} is ${value ?? 'missing'}`);
      return Number.NaN;
    }
    return Number(value);
  };
  const resources = new Map<string, string | undefined>(
    childrenNamed(root, 'producer').map((element) => [
      element.attributes.id ?? '',
      childrenNamed(element, 'property')
        .find((property) => property.attributes.name === 'resource')
        ?.text.trim(),
    ]),
  );
  const playlists = new Map(
    childrenNamed(root, 'playlist').map((element) => [element.attributes.id, element]),
  );
  const tractor = child(root, 'tractor');
  const clips: ReadClip[] = [];
  for (const trackElement of childrenNamed(tractor ?? root, 'track')) {
    const playlist: Element | undefined = playlists.get(trackElement.attributes.producer);
    const kind = trackElement.attributes.hide === 'video' ? 'audio' : 'video';
    let at = 0;
    for (const item of playlist?.children ?? []) {
      const where = `${playlist?.attributes.id} ${item.name}`;
      if (item.name === 'blank') {
        at += whole(item.attributes.length, `${where} length`);
        continue;
      }
      if (item.name !== 'entry') continue;
      const first = whole(item.attributes.in, `${where} in`);
      const last = whole(item.attributes.out, `${where} out`);
      const path = resources.get(item.attributes.producer ?? '');
      clips.push({
        track: kind,
        name: path?.split('/').at(-1) ?? '',
        path,
        in: first,
        start: at,
        end: at + last - first + 1,
      });
      at += last - first + 1;
    }
  }
  return { frames: whole(tractor?.attributes.out, 'the tractor out') + 1, clips, offGrid };
}
