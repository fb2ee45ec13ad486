import type { Rate } from './rate.js';
import { pathOfUrl, type ReadClip, type ReadTimeline, urlOfPath } from './read-back.js';
import type { PlacedClip, Timeline } from './timeline.js';
import { child, childrenNamed, descendants, type Element, escapeXml, parseXml } from './xml.js';

/**
 * Final Cut Pro's FCPXML 1.10: times are rational seconds ("30030/30000s"), each a whole number
 * of the format's frameDuration ("1001/30000s"). The clips sit on the primary storyline (the
 * spine); the music is a connected clip on lane -1 of the first clip, from the timeline's start.
 */
function time(frame: number, rate: Rate): string {
  return frame === 0 ? '0s' : `${frame * rate.den}/${rate.num}s`;
}

function asset(clip: PlacedClip, id: string, rate: Rate): string {
  const sound = clip.audio ? ' hasAudio="1" audioSources="1" audioChannels="2"' : '';
  const picture = clip.video ? ' hasVideo="1" format="r1"' : '';
  return `    <asset id="${id}" name="${escapeXml(clip.name)}" start="0s" duration="${time(clip.mediaFrames, rate)}"${picture}${sound}>
      <media-rep kind="original-media" src="${escapeXml(urlOfPath(clip.path))}"/>
    </asset>`;
}

export function writeFcpxml(timeline: Timeline): string {
  const { rate, music } = timeline;
  const assets = timeline.clips.map((clip, index) => asset(clip, `r${index + 2}`, rate));
  if (music) assets.push(asset(music, 'r-music', rate));
  const spine = timeline.clips.map((clip, index) => {
    const open = `        <asset-clip ref="r${index + 2}" name="${escapeXml(clip.name)}" offset="${time(clip.start, rate)}" start="${time(clip.in, rate)}" duration="${time(clip.end - clip.start, rate)}" tcFormat="NDF"`;
    if (index > 0 || !music) return `${open}/>`;
    // A connected clip's offset is in its parent's source time: the parent's start is timeline frame 0.
    return `${open}>
          <asset-clip ref="r-music" lane="-1" name="${escapeXml(music.name)}" offset="${time(clip.in, rate)}" start="${time(music.in, rate)}" duration="${time(music.end - music.start, rate)}" audioRole="music"/>
        </asset-clip>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE fcpxml>
<fcpxml version="1.10">
  <resources>
    <format id="r1" frameDuration="${time(1, rate)}" width="${timeline.width}" height="${timeline.height}"/>
${assets.join('\n')}
  </resources>
  <library>
    <event name="${escapeXml(timeline.name)}">
      <project name="${escapeXml(timeline.name)}">
        <sequence format="r1" duration="${time(timeline.frames, rate)}" tcStart="0s" tcFormat="NDF">
          <spine>
${spine.join('\n')}
          </spine>
        </sequence>
      </project>
    </event>
  </library>
</fcpxml>
`;
}

/** A rational time ("30030/30000s", "2s", "0s") as whole frames, or NaN with a note in `offGrid`. */
function frames(text: string | undefined, rate: Rate, where: string, offGrid: string[]): number {
  const match = /^(\d+)(?:\/(\d+))?s$/.exec(text ?? '');
  if (!match) {
    offGrid.push(`${where} is ${text ?? 'missing'}`);
    return Number.NaN;
  }
  const numerator = BigInt(match[1] ?? '0') * BigInt(rate.num);
  const denominator = BigInt(match[2] ?? '1') * BigInt(rate.den);
  if (numerator % denominator !== 0n) {
    offGrid.push(`${where} ${text} is not a whole frame`);
    return Number.NaN;
  }
  return Number(numerator / denominator);
}

/** Reads an FCPXML sequence back: its format's frameDuration must be the timeline's, every time whole frames of it. */
export async function readFcpxml(text: string, rate: Rate): Promise<ReadTimeline> {
  const root = await parseXml(text);
  if (root.name !== 'fcpxml') throw new Error(`The root element is <${root.name}>, not <fcpxml>.`);
  const resources = child(root, 'resources');
  const sequence = descendants(root, 'sequence')[0];
  const spine = child(sequence, 'spine');
  if (!resources || !sequence || !spine) throw new Error('The FCPXML has no resources, sequence or spine.');
  const offGrid: string[] = [];
  const format = childrenNamed(resources, 'format').find(
    (candidate) => candidate.attributes.id === sequence.attributes.format,
  );
  if (frames(format?.attributes.frameDuration, rate, 'the format frameDuration', offGrid) !== 1)
    offGrid.push(`the sequence's frameDuration is ${format?.attributes.frameDuration}, not one frame`);
  const sources = new Map(
    childrenNamed(resources, 'asset').map((found) => [
      found.attributes.id,
      child(found, 'media-rep')?.attributes.src,
    ]),
  );
  const clips: ReadClip[] = [];
  const read = (element: Element, track: 'video' | 'audio', start: number): ReadClip => {
    const where = `asset-clip ${element.attributes.name}`;
    const src = sources.get(element.attributes.ref);
    const duration = frames(element.attributes.duration, rate, `${where} duration`, offGrid);
    return {
      track,
      name: element.attributes.name ?? '',
      path: src === undefined ? undefined : pathOfUrl(src),
      in: frames(element.attributes.start ?? '0s', rate, `${where} start`, offGrid),
      start,
      end: start + duration,
    };
  };
  for (const element of childrenNamed(spine, 'asset-clip')) {
    const parent = read(element, 'video', frames(element.attributes.offset, rate, 'a spine offset', offGrid));
    clips.push(parent);
    for (const connected of childrenNamed(element, 'asset-clip')) {
      const offset = frames(connected.attributes.offset, rate, 'a connected offset', offGrid);
      clips.push(read(connected, 'audio', parent.start + offset - parent.in));
    }
  }
  return {
    frames: frames(sequence.attributes.duration, rate, 'the sequence duration', offGrid),
    clips,
    offGrid,
  };
}
