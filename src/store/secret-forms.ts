/**
 * The forms in which a program may print a secret, each with how to make it from the
 * value: as it is, JSON-escaped, base64, base64url, URL-encoded and hex. The scrubber looks
 * for every form of every stored secret; a held input keeps which form it replaced, so the
 * approved call gets exactly what was asked for.
 */
export type FormFamily = 'raw' | 'json' | 'base64' | 'base64url' | 'url' | 'hex';

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

export const SECRET_FORMS: readonly SecretForm[] = [
  { id: 'raw', family: 'raw', minLength: SHORT, encode: (value) => value },
  { id: 'json', family: 'json', minLength: SHORT, encode: (value) => JSON.stringify(value).slice(1, -1) },
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
