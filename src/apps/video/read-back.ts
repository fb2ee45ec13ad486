/** A clip as one written file says it is placed, in frames at the timeline's rate. */
export interface ReadClip {
  track: 'video' | 'audio';
  name: string;
  /** The absolute path the file points at, where the format carries one. */
  path: string | undefined;
  /** First source frame. */
  in: number;
  /** Timeline frames, `end` exclusive. */
  start: number;
  end: number;
}

/** What a reader made of one written file. */
export interface ReadTimeline {
  /** The sequence's length as the file states it (or as its last clip ends, where it states none). */
  frames: number;
  clips: ReadClip[];
  /** Every time in the file that is not a whole frame of the timeline's rate, said where. */
  offGrid: string[];
}

/** The absolute path of a file URL (`file:///a/b%20c.mp4`, `file://localhost/a/b.mp4`), or the text as it is. */
export function pathOfUrl(url: string): string {
  const match = /^file:\/\/(?:localhost)?(\/.*)$/.exec(url);
  return match?.[1] === undefined ? url : decodeURIComponent(match[1]);
}

/** `file:///a/b%20c.mp4` for an absolute path (Premiere wants `file://localhost/...`: pass the host). */
export function urlOfPath(path: string, host = ''): string {
  return `file://${host}${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The text with its line breaks and other control characters as spaces: what a line-based format (EDL) can hold. */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ');
}
