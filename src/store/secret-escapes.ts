/**
 * How common encoders escape a text inside JSON, HTML and URLs, character by character, so
 * that the scrubber can look for a secret as each of them prints it. An encoder applies one
 * rule to every character of a kind (PHP escapes every `/`, Python every non-ASCII letter), so
 * each rule below is one whole form of the secret, looked for as it is.
 */

type Hex = 'lower' | 'upper';

function hex(code: number, digits: number, hexCase: Hex): string {
  const text = code.toString(16).padStart(digits, '0');
  return hexCase === 'upper' ? text.toUpperCase() : text;
}

function isSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdfff;
}

/** What an encoder's JSON string rule escapes besides `"`, `\` and control characters. */
export interface JsonRule {
  /** UTF-16 units written `\uXXXX` (a letter outside ASCII is two of them when astral). */
  asUnicode?: (code: number) => boolean;
  hex?: Hex;
  /** `/` written `\/` (PHP's default, Jackson's ESCAPE_FORWARD_SLASHES). */
  slash?: boolean;
}

/** The text as the body of a JSON string, written by an encoder with this rule. */
export function jsonEscaped(value: string, rule: JsonRule): string {
  let out = '';
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    const char = value[index] as string;
    if (rule.asUnicode?.(code)) out += `\\u${hex(code, 4, rule.hex ?? 'lower')}`;
    else if (rule.slash && char === '/') out += '\\/';
    // Half of a pair on its own would be escaped by JSON.stringify; the pair is written as it is.
    else if (isSurrogate(code)) out += char;
    else out += JSON.stringify(char).slice(1, -1);
  }
  return out;
}

export const nonAscii = (code: number) => code > 0x7e;
/** Not a letter or digit of ASCII: encoders that escape all else (`\u002f` for `/`). */
export const notAlphanumeric = (code: number) => !/[A-Za-z0-9]/.test(String.fromCharCode(code));
/** Go's encoding/json and Rails' json_escape: safe inside an HTML script element. */
export const htmlSensitive = (code: number) => [0x3c, 0x3e, 0x26, 0x2028, 0x2029].includes(code);
/** .NET System.Text.Json's default encoder: HTML-sensitive characters, `+`, backquote, non-ASCII. */
export const dotnetEscaped = (code: number) =>
  code < 0x20 || code > 0x7e || [0x22, 0x26, 0x27, 0x2b, 0x3c, 0x3e, 0x60].includes(code);

/** Entities an encoder writes for the characters HTML needs escaped; others stay as they are. */
export type EntityTable = Readonly<Record<string, string>>;

export const PYTHON_ENTITIES: EntityTable = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};
/** PHP's htmlspecialchars with ENT_QUOTES (its default since 8.1). */
export const PHP_ENTITIES: EntityTable = { ...PYTHON_ENTITIES, "'": '&#039;' };
/** Go's html.EscapeString and html/template, Jinja's MarkupSafe: quotes as decimal references. */
export const DECIMAL_QUOTE_ENTITIES: EntityTable = { ...PYTHON_ENTITIES, '"': '&#34;', "'": '&#39;' };
/** The OWASP rule for attribute values, which also escapes `/`. */
export const OWASP_ENTITIES: EntityTable = { ...PYTHON_ENTITIES, '/': '&#x2F;' };

export function htmlEscaped(value: string, table: EntityTable): string {
  return [...value].map((char) => table[char] ?? char).join('');
}

/** Every character that is not an ASCII letter or digit as a numeric reference (`&#x2f;`, `&#47;`). */
export function htmlNumeric(value: string, base: 10 | 16): string {
  return [...value]
    .map((char) => {
      const code = char.codePointAt(0) as number;
      if (/[A-Za-z0-9]/.test(char)) return char;
      return base === 16 ? `&#x${code.toString(16)};` : `&#${code};`;
    })
    .join('');
}

/**
 * Percent-encoding that keeps only RFC 3986's unreserved characters (PHP's rawurlencode,
 * Python's quote with safe=''), where encodeURIComponent also keeps `!'()*`.
 */
export function rfc3986Encoded(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${hex(char.charCodeAt(0), 2, 'upper')}`);
}

/** Python's quote(value) with its default safe='/': a path keeps its slashes. */
export function pathEncoded(value: string): string {
  return rfc3986Encoded(value).replaceAll('%2F', '/');
}
