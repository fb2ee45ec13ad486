/**
 * Dates as pages show them, whatever format they were typed in: `2026-12-07` shown as
 * "12/07/2026", "7 December 2026", "Dec 7, 2026", "Monday, 7 December 2026, at 05:28" or
 * "2026/12/07 03:21". A date written with numbers only and two parts that could each be the
 * day ("07/12/2026") is read only when the capability says the order (`dmy`, `mdy`); without
 * one it is no date, so a day and month swapped never compare equal by a guess.
 */

export type DateOrder = 'dmy' | 'mdy' | 'ymd';

/** A calendar date and, when the text gave one, its time of day in minutes (and seconds). */
export interface ReadDate {
  year: number;
  month: number;
  day: number;
  minutes?: number;
  seconds?: number;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;

const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const WEEKDAY = '(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\\.?,?\\s+)?';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const TIME =
  '(?:,?\\s*(?:at\\s+|T)?(\\d{1,2}):(\\d{2})(?::(\\d{2}))?(?:\\.\\d+)?\\s*([ap]\\.?m\\.?)?(?:\\s*(?:Z|UTC|[+-]\\d{2}:?\\d{2}))?)?';

/** Each way a date is written, with where its year, month and day are among the groups. */
const FORMS: Array<{ source: string; parts: (match: RegExpExecArray, order?: DateOrder) => Parts }> = [
  // 2026-12-07, 2026/12/07, 2026.12.07
  { source: '(\\d{4})[-/.](\\d{1,2})[-/.](\\d{1,2})', parts: (m) => [m[1], m[2], m[3]] },
  // 07/12/2026, 12-07-2026, 7.12.2026: which is the day is the page's order
  {
    source: '(\\d{1,2})[-/.](\\d{1,2})[-/.](\\d{4})',
    parts: (m, order) => numericParts(m[1]!, m[2]!, m[3]!, order),
  },
  // 7 December 2026, 7. Dec 2026, 7th of December 2026
  { source: `${DAY}\\.?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})`, parts: (m) => [m[3], monthOf(m[2]!), m[1]] },
  // December 7, 2026, Dec 7 2026
  { source: `${MONTH}\\s+${DAY},?\\s+(\\d{4})`, parts: (m) => [m[3], monthOf(m[1]!), m[2]] },
];

type Parts = [string | number | undefined, string | number | undefined, string | number | undefined];

function monthOf(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase() as (typeof MONTHS)[number]) + 1;
}

/** Day and month of a date written with numbers only: known when one is over 12, the two equal, or the order given. */
function numericParts(first: string, second: string, year: string, order?: DateOrder): Parts {
  const [a, b] = [Number(first), Number(second)];
  if (order === 'dmy') return [year, b, a];
  if (order === 'mdy') return [year, a, b];
  if (a === b) return [year, a, b];
  if (a > 12) return [year, b, a];
  if (b > 12) return [year, a, b];
  return [year, undefined, undefined];
}

const COMPILED = FORMS.map((form) => ({
  whole: new RegExp(`^${WEEKDAY}${form.source}${TIME}$`, 'i'),
  within: new RegExp(`(?<![\\w])${WEEKDAY}${form.source}${TIME}(?![\\w])`, 'gi'),
  parts: form.parts,
  groups: new RegExp(`${form.source}|`).exec('')!.length - 1,
}));

function dateOf(match: RegExpExecArray, form: (typeof COMPILED)[number], order?: DateOrder) {
  const [year, month, day] = form.parts(match, order).map(Number);
  if (!year || !month || !day || month > 12 || day > 31) return undefined;
  const read: ReadDate = { year, month, day };
  const [hour, minute, second, meridiem] = match.slice(form.groups + 1, form.groups + 5);
  if (hour !== undefined && minute !== undefined) {
    let hours = Number(hour) % (meridiem ? 12 : 24);
    if (meridiem && /^p/i.test(meridiem)) hours += 12;
    read.minutes = hours * 60 + Number(minute);
    if (second !== undefined) read.seconds = Number(second);
  }
  return read;
}

/** The date a whole text is (a weekday before it and a time after it allowed), or undefined. */
export function wholeDate(text: string, order?: DateOrder): ReadDate | undefined {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  for (const form of COMPILED) {
    const match = form.whole.exec(trimmed);
    if (match) return dateOf(match, form, order);
  }
  return undefined;
}

/** Every date written in a text. */
export function datesIn(text: string, order?: DateOrder): ReadDate[] {
  const flat = text.replace(/\s+/g, ' ');
  return COMPILED.flatMap((form) =>
    [...flat.matchAll(form.within)].flatMap((match) => dateOf(match, form, order) ?? []),
  );
}

/**
 * Whether the page's date is the one expected: the same day, and, when the expected value
 * gave a time, the same time (to the second when both gave seconds). A time the page adds to
 * a date typed without one is its own (the hour the record was saved), never a difference.
 */
export function sameDate(shown: ReadDate, expected: ReadDate): boolean {
  if (shown.year !== expected.year || shown.month !== expected.month || shown.day !== expected.day)
    return false;
  if (expected.minutes === undefined) return true;
  if (shown.minutes !== expected.minutes) return false;
  return expected.seconds === undefined || shown.seconds === undefined || shown.seconds === expected.seconds;
}
