import { z } from 'zod';
import { type DateOrder, datesIn, type ReadDate, sameDate, wholeDate } from './dates.js';
import { durationsIn, wholeDuration } from './durations.js';
import { numbersIn, wholeNumber } from './numbers.js';

/**
 * How a checkpoint compares what the page shows with the value it expects, when the
 * application writes that value its own way. Chosen by the explorer at complete; absent, the
 * comparison is as it always was (`exact`: the page's text trimmed, character for character).
 * - `trimmed`: runs of white space are one space, none at either end;
 * - `case-insensitive`: that, and capitals are small letters;
 * - `number`: the same number however it is grouped ("1,234.50" is 1234.5);
 * - `duration`: the same length of time ("1:30" is 1.5 hours; a bare number is hours);
 * - `date`: the same day ("12/07/2026" and "7 December 2026" are 2026-12-07), with `order`
 *   for dates written with numbers only whose day and month could be swapped;
 * - `list`: the same items, split at the separators, in any order ("editors, user" is
 *   "editors,user" with separators [","]).
 */
export const NormaliseSchema = z.union([
  z.enum(['exact', 'trimmed', 'case-insensitive', 'number', 'duration', 'date']),
  z.strictObject({
    date: z.strictObject({
      order: z
        .enum(['dmy', 'mdy', 'ymd'])
        .describe(
          'Which part is the day in a date written with numbers only: 07/12/2026 is dmy, 12/07/2026 mdy',
        ),
    }),
  }),
  z.strictObject({
    list: z.strictObject({
      separators: z
        .array(z.string().min(1).max(5))
        .min(1)
        .max(5)
        .describe('What separates the items, as typed and as shown (white space around them is ignored)'),
    }),
  }),
]);
export type Normalise = z.infer<typeof NormaliseSchema>;

/** How a comparison matches: the page's value is the expected one, or holds it. */
export type MatchKind = 'exact' | 'contains';

/** White space as one space, none at either end. */
function collapsed(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function itemsOf(text: string, separators: string[]): string[] {
  let items = [text];
  for (const separator of separators) items = items.flatMap((item) => item.split(separator));
  return items.map(collapsed).filter((item) => item.length > 0);
}

/** Whether every item of `wanted` is among `shown` (as many times as it is wanted). */
function holdsItems(shown: string[], wanted: string[]): boolean {
  const left = [...shown];
  for (const item of wanted) {
    const at = left.indexOf(item);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

function orderOf(normalise: Normalise): DateOrder | undefined {
  return typeof normalise === 'object' && 'date' in normalise ? normalise.date.order : undefined;
}

/**
 * Whether the expected value can be compared under the normalisation at all: a `duration`
 * that is no duration, a `date` that is no date. A checkpoint on such a value could never pass.
 */
export function comparable(expected: string, normalise: Normalise | undefined): boolean {
  switch (kindOf(normalise)) {
    case 'number':
      return wholeNumber(expected) !== undefined;
    case 'duration':
      return wholeDuration(expected) !== undefined;
    case 'date':
      return wholeDate(expected, orderOf(normalise!)) !== undefined;
    case 'list':
      return itemsOf(expected, (normalise as { list: { separators: string[] } }).list.separators).length > 0;
    default:
      return true;
  }
}

function kindOf(normalise: Normalise | undefined) {
  if (normalise === undefined) return 'exact';
  if (typeof normalise === 'string') return normalise;
  return 'list' in normalise ? 'list' : 'date';
}

/**
 * Whether the page's text shows the expected value, under the comparison's normalisation:
 * `exact` match, the whole text is that value; `contains`, the text holds it somewhere (for
 * numbers, durations and dates: one of the values written in it is the expected one).
 */
export function comparesEqual(
  shown: string,
  expected: string,
  match: MatchKind,
  normalise?: Normalise,
): boolean {
  const kind = kindOf(normalise);
  switch (kind) {
    case 'exact': {
      const actual = shown.trim();
      return match === 'exact' ? actual === expected : actual.includes(expected);
    }
    case 'trimmed':
    case 'case-insensitive': {
      const fold = (text: string) => (kind === 'trimmed' ? collapsed(text) : collapsed(text).toLowerCase());
      return match === 'exact' ? fold(shown) === fold(expected) : fold(shown).includes(fold(expected));
    }
    case 'number':
      return sameValue(wholeNumber(expected), match, wholeNumber(shown), numbersIn(shown));
    case 'duration':
      return sameValue(wholeDuration(expected), match, wholeDuration(shown), durationsIn(shown));
    case 'date': {
      const order = orderOf(normalise!);
      const wanted = wholeDate(expected, order);
      if (!wanted) return false;
      const dates: ReadDate[] =
        match === 'exact' ? [wholeDate(shown, order) ?? []].flat() : datesIn(shown, order);
      return dates.some((date) => sameDate(date, wanted));
    }
    case 'list': {
      const { separators } = (normalise as { list: { separators: string[] } }).list;
      const [items, wanted] = [itemsOf(shown, separators), itemsOf(expected, separators)];
      if (wanted.length === 0) return false;
      return match === 'exact'
        ? items.length === wanted.length && holdsItems(items, wanted)
        : holdsItems(items, wanted);
    }
  }
}

function sameValue(
  wanted: number | undefined,
  match: MatchKind,
  whole: number | undefined,
  within: number[],
): boolean {
  if (wanted === undefined) return false;
  return match === 'exact' ? whole === wanted : within.includes(wanted);
}

/** The normalisation as a person reads it in a message: `as a duration`, `as a list split at ","`. */
export function describeNormalise(normalise: Normalise | undefined): string {
  const kind = kindOf(normalise);
  if (kind === 'exact') return 'exactly';
  if (kind === 'list')
    return `as a list split at ${(normalise as { list: { separators: string[] } }).list.separators.map((separator) => JSON.stringify(separator)).join(' or ')}`;
  if (kind === 'date') {
    const order = orderOf(normalise!);
    return order ? `as a date (${order})` : 'as a date';
  }
  return kind === 'trimmed' || kind === 'case-insensitive' ? kind : `as a ${kind}`;
}
