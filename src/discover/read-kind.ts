import type { FieldType } from '../capability/capability.js';
import { parseTypedValue } from '../capability/typed.js';
import { tokenPattern } from '../rungs/ui/redact.js';

/**
 * What a read found, described without the value: its kind, how long it is, whether it
 * fits the output's declared type, and whether it is (or holds) a bound input. The explorer
 * never sees a value read, but it must see that it read the wrong thing: an email read as
 * "one word, 7 characters", an owner read as "the same as the bound input id" (the key cell).
 */
export interface ReadKind {
  /** empty, number, date, time, date and time, email, url, path, yes/no, word, identifier, text. */
  kind: string;
  /** Characters, once runs of white space are one space and the ends are trimmed. */
  length: number;
  /** Words, for text. */
  words?: number;
  /** Lines, when the read holds more than one. */
  lines?: number;
  /** Whether it parses as the output's declared type. */
  fits: boolean;
  /** The bound input it equals (then it is most likely the key, not the output). */
  sameAs?: string;
  /** Bound inputs it holds among other text (a whole row or a heading, not one value). */
  holds?: string[];
}

const MONTH =
  /\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sept?(ember)?|oct(ober)?|nov(ember)?|dec(ember)?)\.?\s/i;
const DATE =
  /^(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}\.?\s\p{L}+\.?\s\d{4}|\p{L}+\.?\s\d{1,2},?\s\d{4})\b/u;
const TIME = /\b\d{1,2}:\d{2}(:\d{2})?(\s?[ap]\.?m\.?)?\b/i;

function kindOf(text: string): string {
  if (text.length === 0) return 'empty';
  if (/^(yes|no|true|false|on|off)$/i.test(text)) return 'yes/no';
  if (/^[-+]?\d+$/.test(text)) return 'whole number';
  if (/^[-+]?(\d{1,3}([,'\s\u00a0]\d{3})+|\d+)([.,]\d+)?$/.test(text)) return 'number';
  // An amount or a measure: a number with a currency sign or a unit.
  if (/^(\p{Sc}\s?|[A-Z]{3}\s)?[-+]?[\d.,'\s\u00a0]*\d(\s?(\p{Sc}|%|\p{L}{1,3}\.?))?$/u.test(text))
    return 'number with a sign or unit';
  const date = DATE.test(text) || (MONTH.test(`${text} `) && /\d{4}/.test(text) && text.length <= 40);
  const time = TIME.test(text);
  if (date && time && text.length <= 40) return 'date and time';
  if (date && text.length <= 30) return 'date';
  if (time && /^[\d:\s.apmAPM]+$/.test(text)) return 'time';
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) return 'email address';
  if (/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(text)) return 'URL';
  if (/^\/\S*$/.test(text)) return 'path';
  if (!/\s/.test(text)) return /^\p{L}+$/u.test(text) ? 'word' : 'identifier';
  return 'text';
}

export function readKind(raw: string, type: FieldType, bound: Record<string, string>): ReadKind {
  const lines = raw.split(/\r?\n/).filter((line) => line.trim().length > 0).length;
  const text = raw.replace(/\s+/g, ' ').trim();
  const kind = kindOf(text);
  const sameAs = Object.entries(bound).find(
    ([, value]) => value.length > 0 && value.trim().toLowerCase() === text.toLowerCase(),
  )?.[0];
  const holds = sameAs
    ? []
    : Object.entries(bound)
        .filter(([, value]) => value.length > 0 && new RegExp(tokenPattern(value), 'iu').test(text))
        .map(([name]) => name);
  return {
    kind,
    length: [...text].length,
    ...(kind === 'text' ? { words: text.split(' ').length } : {}),
    ...(lines > 1 ? { lines } : {}),
    fits: parseTypedValue(raw, type) !== undefined,
    ...(sameAs ? { sameAs } : {}),
    ...(holds.length > 0 ? { holds } : {}),
  };
}

/** "an email address, 16 characters" / "text of 12 words on 3 lines, 80 characters, holding the bound input id". */
export function describeReadKind(read: ReadKind): string {
  if (read.kind === 'empty') return 'nothing (an empty text)';
  const article = /^[aeiou]/i.test(read.kind) && read.kind !== 'URL' ? 'an' : 'a';
  const what =
    read.kind === 'text'
      ? `text of ${read.words} words`
      : read.kind === 'word'
        ? 'one word'
        : `${read.kind === 'URL' ? 'a' : article} ${read.kind}`;
  const parts = [
    `${what}${read.lines ? ` on ${read.lines} lines` : ''}`,
    `${read.length} character${read.length === 1 ? '' : 's'}`,
  ];
  if (read.sameAs) parts.push(`the same as the bound input ${read.sameAs}`);
  if (read.holds)
    parts.push(`holding the bound input${read.holds.length > 1 ? 's' : ''} ${read.holds.join(', ')}`);
  return parts.join(', ');
}
