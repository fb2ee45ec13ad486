/**
 * Frame rates as exact fractions, and times as whole frames. 29.97 is 30000/1001 everywhere: a
 * time is a frame count on that grid, and seconds are only ever computed from it, never added up.
 */
export interface Rate {
  /** Frames per `den` seconds: 30000 for 29.97. */
  num: number;
  den: number;
}

/** The rates people name by a decimal, and the exact fraction each one means. */
const NAMED: ReadonlyArray<[number, Rate]> = [
  [23.976, { num: 24000, den: 1001 }],
  [23.98, { num: 24000, den: 1001 }],
  [29.97, { num: 30000, den: 1001 }],
  [47.952, { num: 48000, den: 1001 }],
  [59.94, { num: 60000, den: 1001 }],
  [119.88, { num: 120000, den: 1001 }],
];

/** 25 -> 25/1, 29.97 -> 30000/1001, "30000/1001" -> 30000/1001; undefined for a decimal with no known fraction. */
export function parseRate(given: number | string): Rate | undefined {
  if (typeof given === 'string') {
    const match = /^(\d{1,6})(?:\/(\d{1,5}))?$/.exec(given.trim());
    if (!match) {
      const number = Number(given);
      return Number.isFinite(number) ? parseRate(number) : undefined;
    }
    const num = Number(match[1]);
    const den = Number(match[2] ?? 1);
    if (num === 0 || den === 0) return undefined;
    const divisor = gcd(num, den);
    return { num: num / divisor, den: den / divisor };
  }
  if (!(given > 0)) return undefined;
  const named = NAMED.find(([decimal]) => Math.abs(decimal - given) < 0.0005)?.[1];
  if (named) return named;
  // Any other decimal only as the exact fraction it is (12.5 is 25/2), never rounded.
  for (let den = 1; den <= 1000; den += 1) {
    const num = given * den;
    if (Math.abs(num - Math.round(num)) < 1e-9) return parseRate(`${Math.round(num)}/${den}`);
  }
  return undefined;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** "30000/1001" or "25". */
export function rateText(rate: Rate): string {
  return rate.den === 1 ? String(rate.num) : `${rate.num}/${rate.den}`;
}

/** For messages: "29.97 (30000/1001)" or "25". */
export function rateLabel(rate: Rate): string {
  if (rate.den === 1) return String(rate.num);
  return `${Math.round((rate.num / rate.den) * 1000) / 1000} (${rate.num}/${rate.den})`;
}

/** The nearest frame to a time in seconds. */
export function toFrame(seconds: number, rate: Rate): number {
  return Math.round((seconds * rate.num) / rate.den);
}

/** The frames that lie wholly inside `seconds` of media (a tiny tolerance for a probe's rounding). */
export function framesWithin(seconds: number, rate: Rate): number {
  return Math.floor((seconds * rate.num) / rate.den + 1e-6);
}

/** Where a frame starts, in seconds: for messages and probes only, never summed. */
export function toSeconds(frame: number, rate: Rate): number {
  return (frame * rate.den) / rate.num;
}

/**
 * The whole frames per second that timecode counts at (30 for 29.97, 24 for 23.976), when the
 * rate is a whole number or one of the NTSC fractions (N*1000/1001): the only rates timecode and
 * Premiere's `<timebase>`/`<ntsc>` pair can hold.
 */
export function timebase(rate: Rate): { base: number; ntsc: boolean } | undefined {
  if (rate.den === 1) return { base: rate.num, ntsc: false };
  if (rate.den === 1001 && rate.num % 1000 === 0) return { base: rate.num / 1000, ntsc: true };
  return undefined;
}

/** Non-drop-frame timecode HH:MM:SS:FF of a frame count at `base` frames a second. */
export function timecode(frame: number, base: number): string {
  const two = (value: number) => String(value).padStart(2, '0');
  const frames = frame % base;
  const seconds = Math.floor(frame / base);
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}:${two(frames)}`;
}

/** The frame count of HH:MM:SS:FF at `base`, or undefined when it is not timecode at that base. */
export function frameOfTimecode(text: string, base: number): number | undefined {
  const match = /^(\d{2}):(\d{2}):(\d{2})[:;](\d{2})$/.exec(text);
  if (!match) return undefined;
  const [hours, minutes, seconds, frames] = match.slice(1).map(Number) as [number, number, number, number];
  if (minutes > 59 || seconds > 59 || frames >= base) return undefined;
  return ((hours * 60 + minutes) * 60 + seconds) * base + frames;
}
