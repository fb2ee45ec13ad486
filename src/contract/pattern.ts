import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { LiftError } from './errors.js';

/** The engine, loaded on first use: most commands never compile an outside pattern. */
let engine: typeof RE2JS | undefined;
function re2(): typeof RE2JS {
  engine ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  return engine;
}

/**
 * What Lift matches text with: a RegExp written in Lift's own code, or a pattern from outside
 * (an operator's --confirm, a config's shortlist signal, a policy glob, an API description)
 * compiled by `linearPattern`.
 */
export interface TextPattern {
  readonly source: string;
  test(text: string): boolean;
}

/** Longest pattern accepted from outside. */
export const MAX_PATTERN_CHARS = 1_000;
/** The engine's own measure of a compiled pattern's cost; matching time grows with it. */
const MAX_PROGRAM_SIZE = 2_000;
/** Characters of text an outside pattern is matched against: the end, where a prompt or an error is. */
export const MATCH_TAIL_CHARS = 4_096;

export interface PatternOptions {
  ignoreCase?: boolean;
  /**
   * What of the text is matched: its last MATCH_TAIL_CHARS characters (the default, for
   * output), or all of it (for values whose length the caller has already bounded).
   */
  scope?: 'tail' | 'whole';
  /** What the pattern is, for the error: `--confirm pattern`, `shortlist signal of group 'git'`. */
  what?: string;
}

const HINT =
  'Patterns run on a linear-time engine (RE2 syntax), so that no pattern can hold up a deadline: ' +
  'look-ahead, look-behind and back-references are not available, and a pattern stays under ' +
  `${MAX_PATTERN_CHARS} characters. Write it without them (for example 'Delete \\d+ rows\\?').`;

/**
 * Compiles a pattern that came from outside Lift's code for RE2, a linear-time engine: a match
 * takes time in proportion to the text whatever the pattern, so `(a+)+$` answers as fast as
 * `a`. By default it is matched against the last MATCH_TAIL_CHARS characters of the text, so
 * its cost has a bound too. A pattern the engine cannot run, or a very large one, is BAD_INPUT.
 */
export function linearPattern(source: string, options: PatternOptions = {}): TextPattern {
  const what = options.what ?? 'pattern';
  const refuse = (reason: string) =>
    new LiftError('BAD_INPUT', `The ${what} ${JSON.stringify(source.slice(0, 80))} ${reason}.`, {
      hint: HINT,
    });
  if (source.length > MAX_PATTERN_CHARS) {
    throw refuse(`is ${source.length} characters long; at most ${MAX_PATTERN_CHARS} are allowed`);
  }
  let compiled: RE2JS;
  try {
    compiled = re2().compile(source, options.ignoreCase ? re2().CASE_INSENSITIVE : 0);
  } catch (error) {
    throw refuse(`cannot be used: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (compiled.programSize() > MAX_PROGRAM_SIZE) {
    throw refuse(
      `is too large to match quickly (size ${compiled.programSize()}, at most ${MAX_PROGRAM_SIZE})`,
    );
  }
  if (options.scope === 'whole') return { source, test: (text) => compiled.test(text) };
  return {
    source,
    test: (text) => compiled.test(text.length > MATCH_TAIL_CHARS ? text.slice(-MATCH_TAIL_CHARS) : text),
  };
}

/** A pattern that picks one value out of a text: the text its single capture group matched. */
export interface CapturePattern {
  readonly source: string;
  capture(text: string): string | undefined;
}

/**
 * Compiles an outside pattern that must name exactly one capture group (what a capability reads
 * an id with): with none there is nothing to return, with two the value would be a guess.
 */
export function capturingPattern(source: string, options: PatternOptions = {}): CapturePattern {
  linearPattern(source, options);
  const compiled = re2().compile(source, options.ignoreCase ? re2().CASE_INSENSITIVE : 0);
  const groups = compiled.groupCount();
  if (groups !== 1) {
    throw new LiftError(
      'BAD_INPUT',
      `The ${options.what ?? 'pattern'} ${JSON.stringify(source.slice(0, 80))} has ${groups} capture groups; it needs exactly one, around the value (for example 'Request (R-\\d+) created').`,
      { hint: 'Write other groups as (?:…), which captures nothing.' },
    );
  }
  return {
    source,
    capture: (text) => {
      const matcher = compiled.matcher(text.length > MATCH_TAIL_CHARS ? text.slice(-MATCH_TAIL_CHARS) : text);
      return matcher.find() ? (matcher.group(1) ?? undefined) : undefined;
    },
  };
}

/** Text as a pattern that matches it literally (a bound value put into a text pattern). */
export function literalPattern(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&');
}
