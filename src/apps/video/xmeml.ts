import { type Rate, timebase, timecode } from './rate.js';
import { pathOfUrl, type ReadClip, type ReadTimeline, urlOfPath } from './read-back.js';
import type { PlacedClip, Timeline } from './timeline.js';
import { child, childrenNamed, descendants, type Element, escapeXml, parseXml, textAt } from './xml.js';

/**
 * Premiere Pro's XML (xmeml version 4, Final Cut Pro 7's interchange format): whole frames at a
 * `<timebase>`, with `<ntsc>TRUE</ntsc>` for the 1000/1001 rates. Clip `end` and `out` are exclusive.
 */
function rateXml(rate: Rate, indent: string): string {
  const base = timebase(rate);
  if (!base) throw new Error(`Premiere XML cannot hold ${rate.num}/${rate.den}.`);
  return `${indent}<rate><timebase>${base.base}</timebase><ntsc>${base.ntsc ? 'TRUE' : 'FALSE'}</ntsc></rate>`;
}

function clipItem(clip: PlacedClip, id: string, fileId: string, kind: 'video' | 'audio', rate: Rate): string {
  const i = '        ';
  const own = clip.native && timebase(clip.native.rate) ? clip.native : undefined;
  const media = [
    clip.video ? '<video/>' : '',
    clip.audio ? '<audio><channelcount>2</channelcount></audio>' : '',
  ].join('');
  return [
    `${i}<clipitem id="${id}">`,
    `${i}  <name>${escapeXml(clip.name)}</name>`,
    `${i}  <enabled>TRUE</enabled>`,
    `${i}  <duration>${clip.mediaFrames}</duration>`,
    rateXml(rate, `${i}  `),
    `${i}  <start>${clip.start}</start>`,
    `${i}  <end>${clip.end}</end>`,
    `${i}  <in>${clip.in}</in>`,
    `${i}  <out>${clip.out}</out>`,
    `${i}  <file id="${fileId}">`,
    `${i}    <name>${escapeXml(clip.name)}</name>`,
    `${i}    <pathurl>${escapeXml(urlOfPath(clip.path, 'localhost'))}</pathurl>`,
    // The file as it is: its own rate and length where Premiere's rate element can say it.
    rateXml(own ? own.rate : rate, `${i}    `),
    `${i}    <duration>${own ? own.frames : clip.mediaFrames}</duration>`,
    `${i}    <media>${media}</media>`,
    `${i}  </file>`,
    ...(kind === 'audio'
      ? [`${i}  <sourcetrack><mediatype>audio</mediatype><trackindex>1</trackindex></sourcetrack>`]
      : []),
    `${i}</clipitem>`,
  ].join('\n');
}

export function writeXmeml(timeline: Timeline): string {
  const { rate } = timeline;
  const base = timebase(rate);
  const video = timeline.clips.map((clip, index) =>
    clipItem(clip, `clipitem-${index + 1}`, `file-${index + 1}`, 'video', rate),
  );
  const music = timeline.music;
  const audio = music ? [clipItem(music, 'clipitem-music', 'file-music', 'audio', rate)] : [];
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE xmeml>
<xmeml version="4">
  <sequence id="sequence-1">
    <name>${escapeXml(timeline.name)}</name>
    <duration>${timeline.frames}</duration>
${rateXml(rate, '    ')}
    <timecode>
${rateXml(rate, '      ')}
      <string>${timecode(0, base?.base ?? 1)}</string>
      <frame>0</frame>
      <displayformat>NDF</displayformat>
    </timecode>
    <media>
      <video>
        <format>
          <samplecharacteristics>
${rateXml(rate, '            ')}
            <width>${timeline.width}</width>
            <height>${timeline.height}</height>
            <pixelaspectratio>square</pixelaspectratio>
          </samplecharacteristics>
        </format>
      <track>
${video.join('\n')}
      </track>
      </video>
      <audio>
      <track>
${audio.join('\n')}
      </track>
      </audio>
    </media>
  </sequence>
</xmeml>
`;
}

/** A whole number of frames, or a note in `offGrid`. */
function frames(text: string | undefined, where: string, offGrid: string[]): number {
  const value = Number(text);
  if (text === undefined || !Number.isInteger(value)) {
    offGrid.push(`${where} is ${text ?? 'missing'}`);
    return Number.NaN;
  }
  return value;
}

function readItem(item: Element, track: 'video' | 'audio', offGrid: string[]): ReadClip {
  const name = textAt(item, 'name') ?? '';
  const where = `clipitem ${item.attributes.id ?? name}`;
  const pathurl = textAt(item, 'file', 'pathurl');
  return {
    track,
    name,
    path: pathurl === undefined ? undefined : pathOfUrl(pathurl),
    in: frames(textAt(item, 'in'), `${where} <in>`, offGrid),
    start: frames(textAt(item, 'start'), `${where} <start>`, offGrid),
    end: frames(textAt(item, 'end'), `${where} <end>`, offGrid),
  };
}

/** Reads an xmeml sequence back: its rate must be the timeline's, its times whole frames. */
export async function readXmeml(text: string, rate: Rate): Promise<ReadTimeline> {
  const root = await parseXml(text);
  if (root.name !== 'xmeml') throw new Error(`The root element is <${root.name}>, not <xmeml>.`);
  const sequence = child(root, 'sequence');
  if (!sequence) throw new Error('The xmeml has no <sequence>.');
  const offGrid: string[] = [];
  const base = timebase(rate);
  const said = `${textAt(sequence, 'rate', 'timebase')}/${textAt(sequence, 'rate', 'ntsc')}`;
  if (said !== `${base?.base}/${base?.ntsc ? 'TRUE' : 'FALSE'}`)
    offGrid.push(`the sequence's rate is ${said}`);
  const clips: ReadClip[] = [];
  for (const track of ['video', 'audio'] as const)
    for (const trackElement of childrenNamed(child(child(sequence, 'media'), track) ?? sequence, 'track'))
      for (const item of descendants(trackElement, 'clipitem')) clips.push(readItem(item, track, offGrid));
  return { frames: frames(textAt(sequence, 'duration'), 'the sequence <duration>', offGrid), clips, offGrid };
}
