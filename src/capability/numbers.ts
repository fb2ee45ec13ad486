/**
 * Numbers as pages show them: grouped by thousands ("1,234.50", "1 234,50", "1.234.567",
 * "12'345"), signed, with a currency or a unit beside them. What a checkpoint compares when it
 * declares `"normalise": "number"`: the value, never the way it is written.
 */

/** A number as written: digits, grouping and at most one decimal mark, with a sign before it. */
const NUMBER = /[-+\u2212]?\d+(?:[.,'\u00a0\u202f ]\d+)*/g;

/** Characters that only ever group digits (a space, a no-break space, an apostrophe). */
const GROUPING_ONLY = /^['\u00a0\u202f ]$/;

/**
 * The value of one written number, or undefined when how it is grouped is not a way numbers
 * are written. Two different marks: the last is the decimal one ("1.234,50", "1,234.50"). One
 * mark written several times groups thousands ("1,234,567"). One comma or dot once is read as
 * English pages write it: a comma before exactly three digits groups ("1,234" is 1234), any
 * other comma and every dot is the decimal mark ("1,5", "1.234"). Groups after a grouping mark
 * hold three digits each.
 */
export function numberOf(written: string): number | undefined {
  const sign = /^[-\u2212]/.test(written) ? -1 : 1;
  const body = written.replace(/^[-+\u2212]/, '');
  const marks = [...body.matchAll(/[^\d]/g)].map((match) => match[0]);
  if (marks.length === 0) return sign * Number(body);
  const kinds = [...new Set(marks)];
  if (kinds.length > 2) return undefined;
  let grouping: string | undefined;
  let decimal: string | undefined;
  if (kinds.length === 2) {
    decimal = marks.at(-1)!;
    grouping = kinds.find((kind) => kind !== decimal);
    if (marks.indexOf(decimal) !== marks.length - 1 || GROUPING_ONLY.test(decimal)) return undefined;
  } else if (marks.length > 1 || GROUPING_ONLY.test(kinds[0]!)) {
    grouping = kinds[0];
  } else if (kinds[0] === ',' && /^\d{1,3},\d{3}$/.test(body)) {
    grouping = ',';
  } else {
    decimal = kinds[0];
  }
  const [whole, fraction] = decimal === undefined ? [body, undefined] : splitAtLast(body, decimal);
  const groups = grouping === undefined ? [whole] : whole.split(grouping);
  if (groups.slice(1).some((group) => group.length !== 3) || groups[0]!.length === 0) return undefined;
  const digits = `${groups.join('')}${fraction === undefined ? '' : `.${fraction}`}`;
  return /^\d+(\.\d+)?$/.test(digits) ? sign * Number(digits) : undefined;
}

function splitAtLast(text: string, mark: string): [string, string] {
  const at = text.lastIndexOf(mark);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** Every number written in a text, in order (those that are no way of writing one left out). */
export function numbersIn(text: string): number[] {
  return [...text.matchAll(NUMBER)].flatMap((match) => {
    const written = match[0].trim();
    const value = numberOf(written);
    if (value !== undefined) return [value];
    // Not one number ("1,2,3", "page 1 2 3"): each run of digits is one.
    return [...written.matchAll(/\d+/g)].map((digits) => Number(digits[0]));
  });
}

/**
 * The number a whole text is: one number, with at most a currency sign or a short unit word
 * beside it ("$1,234.50", "1 234,50 €", "17 rows"); undefined for anything else.
 */
export function wholeNumber(text: string): number | undefined {
  const found = [...text.trim().matchAll(NUMBER)];
  if (found.length !== 1) return undefined;
  const match = found[0]!;
  const before = text.trim().slice(0, match.index);
  const after = text.trim().slice(match.index! + match[0].length);
  if (!AFFIX.test(before) || !AFFIX.test(after)) return undefined;
  return numberOf(match[0].trim());
}

/** What may stand beside a number and leave it the number: a currency sign or code, a unit, a percent. */
const AFFIX = /^\s*(?:[^\d\s]{1,3}|[A-Za-z]{1,12}\.?)?\s*$/u;
