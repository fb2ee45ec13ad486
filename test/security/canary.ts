/**
 * A canary secret with characters that make every encoding differ from the value (a slash,
 * a space, a plus, a quote, an ampersand, a non-ASCII letter), and its forms as programs
 * print them, computed here independently of Lift's scrubber.
 */
export const CANARY = 'canary/7f3a 9c+e"q&x-ü-41d0';

export function printedForms(value: string): Record<string, string> {
  const bytes = Buffer.from(value, 'utf8');
  return {
    raw: value,
    json: JSON.stringify(value).slice(1, -1),
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

/** The forms of the canary found in a text, by name (an empty list when none leaked). */
export function leakedForms(text: string, value = CANARY): string[] {
  return Object.entries(printedForms(value))
    .filter(([, form]) => text.includes(form))
    .map(([name]) => name);
}
