import { numberOf } from './numbers.js';

/**
 * Durations as pages show them, in seconds: `1.5` hours typed and shown as "1:30", "1:30 h",
 * "1h 30m", "1 hour 30 minutes", "90 min" or "PT1H30M". A bare number is hours, as the
 * time-tracking fields it comes from take it ("1.5", "1,5 h"). Days and weeks are left out:
 * trackers count a day as 8 hours or 24, and which one a page means is not written on it.
 */

const UNIT_SECONDS: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
};

const UNIT = '(?:seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)';
const AMOUNT = '\\d+(?:[.,]\\d+)?';
const CLOCK = `\\d+:[0-5]\\d(?::[0-5]\\d)?(?:\\s*(?:${UNIT}))?`;
const UNITS = `${AMOUNT}\\s*${UNIT}(?:[\\s,]*(?:and\\s+)?${AMOUNT}\\s*${UNIT})*`;
const ISO = 'PT(?:\\d+(?:\\.\\d+)?H)?(?:\\d+(?:\\.\\d+)?M)?(?:\\d+(?:\\.\\d+)?S)?';

/** A duration written with its units or as a clock, wherever it stands in a text. */
const WRITTEN = new RegExp(`(?<![\\w.,:])(?:${ISO}|${CLOCK}|${UNITS})(?![\\w:])`, 'gi');

/** Seconds of one written duration, or undefined when it is none. */
function secondsOf(written: string): number | undefined {
  const text = written.trim();
  const clock = new RegExp(`^(\\d+):([0-5]\\d)(?::([0-5]\\d))?(?:\\s*${UNIT})?$`, 'i').exec(text);
  if (clock) return Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3] ?? 0);
  const iso = /^PT(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?$/i.exec(text);
  if (iso && text.length > 2)
    return rounded(Number(iso[1] ?? 0) * 3600 + Number(iso[2] ?? 0) * 60 + Number(iso[3] ?? 0));
  const parts = [...text.matchAll(new RegExp(`(${AMOUNT})\\s*(${UNIT})(?![a-z])`, 'gi'))];
  const rest = text.replace(new RegExp(`${AMOUNT}\\s*${UNIT}(?![a-z])`, 'gi'), '').replace(/[\s,]|and/gi, '');
  if (parts.length > 0 && rest === '') {
    let seconds = 0;
    for (const [, amount, unit] of parts) {
      const value = numberOf(amount!);
      if (value === undefined) return undefined;
      seconds += value * UNIT_SECONDS[unit!.toLowerCase()]!;
    }
    return rounded(seconds);
  }
  return undefined;
}

/** Seconds to the millisecond: 1.1 hours is 3960 seconds, not 3960.0000000000005. */
function rounded(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * The duration a whole text is, in seconds: a clock, units, an ISO 8601 duration, or a bare
 * number of hours ("1.5"); undefined for anything else.
 */
export function wholeDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(?:[.,]\d+)?$/.test(trimmed)) {
    const hours = numberOf(trimmed);
    return hours === undefined ? undefined : rounded(hours * 3600);
  }
  return secondsOf(trimmed);
}

/**
 * Every duration written with units or as a clock in a text. A bare number inside a sentence
 * is not one ("Issue 2 took 1:30" holds one duration, not two): it counts only as a whole text.
 */
export function durationsIn(text: string): number[] {
  return [...text.matchAll(WRITTEN)]
    .map((match) => secondsOf(match[0]))
    .filter((seconds): seconds is number => seconds !== undefined);
}
