/**
 * A canary secret with characters that make every encoding differ from the value (a slash,
 * a space, a plus, a quote, an ampersand, a non-ASCII letter), and its forms as programs
 * print them, computed here independently of Lift's scrubber.
 */
export const CANARY = 'canary/7f3a 9c+e"q&x-ü-41d0';

/** `\\uXXXX` for every UTF-16 unit of the characters `picked` says; the rest as JSON writes it. */
function unicodeEscaped(value: string, picked: (char: string) => boolean, upper = false): string {
  return [...value]
    .map((char) =>
      picked(char)
        ? [...Array(char.length).keys()]
            .map((at) => {
              const digits = char.charCodeAt(at).toString(16).padStart(4, '0');
              return `\\u${upper ? digits.toUpperCase() : digits}`;
            })
            .join('')
        : JSON.stringify(char).slice(1, -1),
    )
    .join('');
}

const ascii = (char: string) => char.charCodeAt(0) < 0x7f;
const alphanumeric = (char: string) => /^[A-Za-z0-9]$/.test(char);

export function printedForms(value: string): Record<string, string> {
  const bytes = Buffer.from(value, 'utf8');
  const htmlEscaped = value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
  return {
    raw: value,
    json: JSON.stringify(value).slice(1, -1),
    php: unicodeEscaped(value, (char) => !ascii(char)).replaceAll('/', '\\/'),
    'php-unicode': JSON.stringify(value).slice(1, -1).replaceAll('/', '\\/'),
    python: unicodeEscaped(value, (char) => !ascii(char)),
    go: unicodeEscaped(value, (char) => '<>&'.includes(char)),
    dotnet: unicodeEscaped(value, (char) => !ascii(char) || `"&+<>\`'`.includes(char), true),
    unicode: unicodeEscaped(value, (char) => !alphanumeric(char)),
    html: htmlEscaped,
    'html-owasp': htmlEscaped.replaceAll('/', '&#x2F;'),
    'html-hex': [...value]
      .map((char) => (alphanumeric(char) ? char : `&#x${char.codePointAt(0)?.toString(16)};`))
      .join(''),
    path: encodeURIComponent(value).replaceAll('%2F', '/'),
    base64: bytes.toString('base64'),
    base64url: bytes.toString('base64url'),
    url: encodeURIComponent(value),
    'url-lower': encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase()),
    'url-form': new URLSearchParams({ v: value }).toString().slice(2),
    hex: bytes.toString('hex'),
    'hex-upper': bytes.toString('hex').toUpperCase(),
    'basic-auth': Buffer.from(`deploy:${value}`).toString('base64'),
  };
}

/**
 * The forms of the canary found in a text, by name (an empty list when none leaked): as
 * printed, or inside a JSON document where the form itself was JSON-escaped again.
 */
export function leakedForms(text: string, value = CANARY): string[] {
  return Object.entries(printedForms(value))
    .filter(([, form]) => text.includes(form) || text.includes(JSON.stringify(form).slice(1, -1)))
    .map(([name]) => name);
}
