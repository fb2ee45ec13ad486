import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Html } from './html.js';

const MAX_FORM_BYTES = 256 * 1024;

/**
 * What every console response carries: no caching of pages that show held calls, no framing by
 * other sites, and scripts and styles from the console only.
 */
const HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on form posts.
  'referrer-policy': 'same-origin',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

export function sendHtml(
  response: ServerResponse,
  status: number,
  page: Html,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { ...HEADERS, 'content-type': 'text/html; charset=utf-8', ...headers });
  response.end(page.text);
}

export function sendText(response: ServerResponse, status: number, text: string, type = 'text/plain'): void {
  response.writeHead(status, { ...HEADERS, 'content-type': `${type}; charset=utf-8` });
  response.end(text);
}

/** A file's bytes (a run's screenshot) under the same headers as every page. */
export function sendBytes(response: ServerResponse, body: Buffer, type: string): void {
  response.writeHead(200, { ...HEADERS, 'content-type': type, 'content-length': String(body.length) });
  response.end(body);
}

/** After a form post: See Other, so a reload does not post again. */
export function redirect(
  response: ServerResponse,
  location: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(303, { ...HEADERS, location, ...headers });
  response.end();
}

export function sseHeaders(response: ServerResponse): void {
  response.writeHead(200, {
    ...HEADERS,
    'content-type': 'text/event-stream',
    connection: 'keep-alive',
  });
}

/** A url-encoded form body, bounded. */
export async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new RangeError(`Form over ${MAX_FORM_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
