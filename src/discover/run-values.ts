/** What the session saw around its write, for telling a value this run made from one the application had. */
export interface RunTexts {
  /** Texts the pages showed before anything was written (bound values as placeholders). */
  before: ReadonlySet<string>;
  /** Texts the pages showed after a write. */
  after: ReadonlySet<string>;
  /** Literal values the explorer typed into the page: a number among them was not made by the application. */
  typed: readonly string[];
  /** When the session ran: today's date in a target is this run's, not the record's. */
  now: Date;
  /** Whether the session wrote at all; a session that only looked made nothing. */
  wrote: boolean;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Today's date as applications commonly print it: ISO, slashes, dots, day and month names. */
function datePatterns(now: Date): RegExp[] {
  const dates = [now, new Date(now.getTime() - 86_400_000), new Date(now.getTime() + 86_400_000)];
  const patterns: RegExp[] = [];
  for (const date of dates) {
    for (const [year, month, day] of [
      [date.getFullYear(), date.getMonth(), date.getDate()],
      [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()],
    ] as const) {
      const mm = String(month + 1).padStart(2, '0');
      const dd = String(day).padStart(2, '0');
      const name = MONTHS[month]!;
      const d = `0?${day}`;
      const m = `0?${month + 1}`;
      patterns.push(
        new RegExp(`\\b${year}[-/.]${mm}[-/.]${dd}\\b`),
        new RegExp(`\\b${d}[./]${m}[./]${year}\\b`),
        new RegExp(`\\b${m}/${d}/${year}\\b`),
        new RegExp(`\\b${name.slice(0, 3)}[a-z]*\\.? ${d}(st|nd|rd|th)?,? ${year}\\b`, 'i'),
        new RegExp(`\\b${d}(st|nd|rd|th)?\\.? ${name.slice(0, 3)}[a-z]*\\.?,? ${year}\\b`, 'i'),
      );
    }
  }
  return patterns;
}

/** A number as one token with what joins it to others: "2025-03-01" and "03:21" are not "03". */
const NUMBER = /\d+(?:[-/.:,]\d+)*/g;
const PLACEHOLDER = /\{\{input\.[A-Za-z0-9_]+\}\}/g;

function numbersIn(texts: Iterable<string>): Set<string> {
  const numbers = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(NUMBER)) numbers.add(match[0]);
  return numbers;
}

/**
 * Why a literal of the capability is a value only this run produced, or undefined when it is
 * not: today's date (a "Last modified" line), or a number the pages showed only after the
 * write and never before (the new record's "#4"). A replay on other inputs, another day, would
 * look for a value that is not there.
 */
export function runProduced(texts: RunTexts): (literal: string) => string | undefined {
  const dates = datePatterns(texts.now);
  const before = numbersIn(texts.before);
  const typed = numbersIn(texts.typed);
  const after = texts.wrote ? numbersIn(texts.after) : new Set<string>();
  return (literal) => {
    // What a placeholder stands for is the call's input, never this run's value.
    const outside = literal.replace(PLACEHOLDER, ' ');
    const date = dates.map((pattern) => pattern.exec(outside)?.[0]).find((found) => found !== undefined);
    if (date) return `'${date}' is today's date`;
    for (const match of outside.matchAll(NUMBER)) {
      const number = match[0];
      if (after.has(number) && !before.has(number) && !typed.has(number))
        return `'${number}' appeared only after this run's write (the record it made)`;
    }
    return undefined;
  };
}

/** Every string a target (or any value) holds, keys that name kinds left out. */
export function literalsIn(value: unknown): string[] {
  const found: string[] = [];
  const visit = (node: unknown, key?: string) => {
    if (typeof node === 'string') {
      if (key !== 'by' && key !== 'role') found.push(node);
    } else if (Array.isArray(node)) {
      for (const item of node) visit(item);
    } else if (node && typeof node === 'object') {
      for (const [name, child] of Object.entries(node)) visit(child, name);
    }
  };
  visit(value);
  return found;
}
