import {
  DECIMAL_QUOTE_ENTITIES,
  dotnetEscaped,
  htmlEscaped,
  htmlNumeric,
  htmlSensitive,
  type JsonRule,
  jsonEscaped,
  nonAscii,
  notAlphanumeric,
  OWASP_ENTITIES,
  PHP_ENTITIES,
  PYTHON_ENTITIES,
  pathEncoded,
  rfc3986Encoded,
} from './secret-escapes.js';

/**
 * The forms in which a program may print a secret, each with how to make it from the
 * value: as it is, JSON-escaped (as JavaScript, PHP, Python, Go, .NET and Java write it),
 * HTML-escaped, base64, base64url, URL-encoded and hex. The scrubber looks for every form of
 * every stored secret; a held input keeps which form it replaced, so the approved call gets
 * exactly what was asked for.
 */
export type FormFamily = 'raw' | 'json' | 'html' | 'base64' | 'base64url' | 'url' | 'hex';

export interface SecretForm {
  /** Stable id, kept in held inputs: `base64`, `base64+1`, `url-form`, ... */
  readonly id: string;
  readonly family: FormFamily;
  /** Shorter text than this is not looked for: it could stand in ordinary text. */
  readonly minLength: number;
  encode(value: string): string;
}

const bytes = (value: string) => Buffer.from(value, 'utf8');

/**
 * The characters of a base64 text that only the secret's bytes decide, when the secret
 * starts `offset` bytes into a longer encoded run (user:password in a basic-auth header).
 */
function base64Core(value: string, offset: number, encoding: 'base64' | 'base64url'): string {
  const data = bytes(value);
  const text = Buffer.concat([Buffer.alloc(offset), data]).toString(encoding);
  return text.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + data.length)) / 6));
}

/** Percent-escapes in lower case (%2f), as some programs print them. */
function lowerEscapes(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase());
}

/** application/x-www-form-urlencoded: a space is a plus, and ! ' ( ) ~ are escaped too. */
function formEncoded(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

const SHORT = 4;
// A fragment of an encoded run is looked for only when long enough never to occur by chance.
const FRAGMENT = 8;

/** JSON string bodies as encoders write them beyond JSON.stringify's minimum, by id. */
const JSON_RULES: Record<string, JsonRule> = {
  // PHP's json_encode with JSON_UNESCAPED_UNICODE; Jackson's ESCAPE_FORWARD_SLASHES.
  'json-slash': { slash: true },
  // PHP's json_encode as it is by default: `\/` and `\u00fc`.
  'json-php': { slash: true, asUnicode: nonAscii },
  // Python's json.dumps by default (ensure_ascii).
  'json-ascii': { asUnicode: nonAscii },
  // Java's Jackson with ESCAPE_NON_ASCII.
  'json-ascii-upper': { asUnicode: nonAscii, hex: 'upper' },
  // Go's encoding/json, Rails' json_escape.
  'json-html': { asUnicode: htmlSensitive },
  // .NET's System.Text.Json by default.
  'json-dotnet': { asUnicode: dotnetEscaped, hex: 'upper' },
  // Encoders that escape everything but letters and digits (`\u002f` for `/`).
  'json-unicode': { asUnicode: notAlphanumeric },
  'json-unicode-upper': { asUnicode: notAlphanumeric, hex: 'upper' },
};

export const SECRET_FORMS: readonly SecretForm[] = [
  { id: 'raw', family: 'raw', minLength: SHORT, encode: (value) => value },
  { id: 'json', family: 'json', minLength: SHORT, encode: (value) => JSON.stringify(value).slice(1, -1) },
  ...Object.entries(JSON_RULES).map(
    ([id, rule]): SecretForm => ({
      id,
      family: 'json',
      minLength: SHORT,
      encode: (value) => jsonEscaped(value, rule),
    }),
  ),
  { id: 'html', family: 'html', minLength: SHORT, encode: (value) => htmlEscaped(value, PYTHON_ENTITIES) },
  { id: 'html-php', family: 'html', minLength: SHORT, encode: (value) => htmlEscaped(value, PHP_ENTITIES) },
  {
    id: 'html-decimal-quotes',
    family: 'html',
    minLength: SHORT,
    encode: (value) => htmlEscaped(value, DECIMAL_QUOTE_ENTITIES),
  },
  {
    id: 'html-owasp',
    family: 'html',
    minLength: SHORT,
    encode: (value) => htmlEscaped(value, OWASP_ENTITIES),
  },
  { id: 'html-hex', family: 'html', minLength: SHORT, encode: (value) => htmlNumeric(value, 16) },
  { id: 'html-decimal', family: 'html', minLength: SHORT, encode: (value) => htmlNumeric(value, 10) },
  { id: 'base64', family: 'base64', minLength: SHORT, encode: (value) => bytes(value).toString('base64') },
  {
    id: 'base64url',
    family: 'base64url',
    minLength: SHORT,
    encode: (value) => bytes(value).toString('base64url'),
  },
  ...[0, 1, 2].flatMap((offset): SecretForm[] => [
    {
      id: `base64+${offset}`,
      family: 'base64',
      minLength: FRAGMENT,
      encode: (value) => base64Core(value, offset, 'base64'),
    },
    {
      id: `base64url+${offset}`,
      family: 'base64url',
      minLength: FRAGMENT,
      encode: (value) => base64Core(value, offset, 'base64url'),
    },
  ]),
  { id: 'url', family: 'url', minLength: SHORT, encode: (value) => encodeURIComponent(value) },
  {
    id: 'url-lower',
    family: 'url',
    minLength: SHORT,
    encode: (value) => lowerEscapes(encodeURIComponent(value)),
  },
  { id: 'url-form', family: 'url', minLength: SHORT, encode: formEncoded },
  {
    id: 'url-form-lower',
    family: 'url',
    minLength: SHORT,
    encode: (value) => lowerEscapes(formEncoded(value)),
  },
  // PHP's rawurlencode, Python's quote(value, safe='').
  { id: 'url-rfc3986', family: 'url', minLength: SHORT, encode: rfc3986Encoded },
  // Python's quote(value): its default keeps `/`.
  { id: 'url-path', family: 'url', minLength: SHORT, encode: pathEncoded },
  // JavaScript's encodeURI, which keeps the characters that separate a URL's parts.
  { id: 'url-uri', family: 'url', minLength: SHORT, encode: (value) => encodeURI(value) },
  // PHP's urlencode: a form encoding that escapes `*` too.
  {
    id: 'url-form-php',
    family: 'url',
    minLength: SHORT,
    encode: (value) => formEncoded(value).replaceAll('*', '%2A'),
  },
  { id: 'hex', family: 'hex', minLength: SHORT, encode: (value) => bytes(value).toString('hex') },
  {
    id: 'hex-upper',
    family: 'hex',
    minLength: SHORT,
    encode: (value) => bytes(value).toString('hex').toUpperCase(),
  },
];

const BY_ID = new Map(SECRET_FORMS.map((form) => [form.id, form]));

export function secretForm(id: string): SecretForm | undefined {
  return BY_ID.get(id);
}
