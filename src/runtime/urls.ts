import { LiftError } from '../contract/errors.js';
import type { UrlScope } from '../contract/paths.js';
import type { PathPolicy } from './roots.js';

/** Same-origin redirects followed before the fetch gives up (another origin is never followed). */
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The serialised origin of a web URL (`https://host:port`), or undefined when it has none. */
export function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

function notStarted(code: LiftError['code'], message: string, hint: string): LiftError {
  return new LiftError(code, message, { hint, outcome: 'not_started' });
}

/**
 * The URL a tool declared, when the operator's policy allows its origin for the family:
 * http(s) only, no user name or password in it. Anything else is refused before a request is made.
 */
export function allowedUrl(policy: PathPolicy, text: string, scope: UrlScope): URL {
  const origin = originOf(text);
  if (origin === undefined) {
    throw notStarted(
      'BAD_INPUT',
      `${scope.what} ${JSON.stringify(text.slice(0, 200))} is not an http or https URL.`,
      'Give an https:// address of an origin the operator allows, or a file path in the field for files.',
    );
  }
  const url = new URL(text);
  if (url.username || url.password) {
    throw notStarted(
      'BAD_INPUT',
      `${scope.what} carries a user name or password in the URL; nothing was fetched.`,
      'Give the address without credentials.',
    );
  }
  const allowed = policy.origins[scope.family] ?? [];
  if (allowed.includes(origin)) return url;
  throw notStarted(
    'POLICY_BLOCKED',
    `${scope.what}: ${scope.family} tools may not fetch from ${origin} (${allowed.length > 0 ? `allowed: ${allowed.join(', ')}` : 'no origin is allowed'}); nothing was fetched.`,
    `Give a file path inside the roots instead, or ask the operator to allow the origin in lift.config.json: "settings": { "${scope.family}": { "origins": ["${origin}"] } }.`,
  );
}

function tooLarge(scope: UrlScope, shown: string): LiftError {
  return notStarted(
    'BAD_INPUT',
    `${scope.what}: ${shown} sends more than ${scope.maxBytes} bytes; the read stopped there and nothing was kept.`,
    `Give a smaller file (at most ${Math.floor(scope.maxBytes / 1_048_576)} MB).`,
  );
}

/**
 * The body of an allowed URL, at most `scope.maxBytes` of it: a longer body is cut off as soon as
 * it passes the cap (a Content-Length over it is refused before the body is read). Redirects are
 * followed by hand, only within the first URL's origin; one to another origin is refused unsent.
 */
export async function fetchAllowed(
  policy: PathPolicy,
  text: string,
  scope: UrlScope,
  signal: AbortSignal,
): Promise<Buffer> {
  const first = allowedUrl(policy, text, scope);
  let url = first;
  for (let hop = 0; ; hop++) {
    const response = await send(url, scope, signal);
    if (!REDIRECTS.has(response.status)) return bodyOf(response, url, scope);
    await response.body?.cancel();
    const location = response.headers.get('location');
    const next = location === null ? undefined : new URL(location, url);
    if (next === undefined || next.origin !== first.origin) {
      throw notStarted(
        'POLICY_BLOCKED',
        `${scope.what}: ${url.origin} redirected to ${next?.origin ?? 'nowhere'}, another origin; the redirect was not followed.`,
        'Give the final address of the file, on an origin the operator allows.',
      );
    }
    if (hop >= MAX_REDIRECTS) {
      throw notStarted(
        'BAD_INPUT',
        `${scope.what}: more than ${MAX_REDIRECTS} redirects.`,
        'Give the final address.',
      );
    }
    url = next;
  }
}

async function send(url: URL, scope: UrlScope, signal: AbortSignal): Promise<Response> {
  try {
    return await fetch(url, { redirect: 'manual', signal });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new LiftError('UPSTREAM_ERROR', `${scope.what}: ${url.origin} could not be reached.`, {
      hint: 'Check that the address answers, then call again.',
      outcome: 'not_started',
      cause: error,
    });
  }
}

async function bodyOf(response: Response, url: URL, scope: UrlScope): Promise<Buffer> {
  const shown = `${url.origin}${url.pathname}`;
  if (!response.ok) {
    await response.body?.cancel();
    const code = response.status >= 500 ? 'UPSTREAM_ERROR' : 'NOT_FOUND';
    throw notStarted(code, `${scope.what}: ${shown} answered HTTP ${response.status}.`, 'Check the address.');
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > scope.maxBytes) {
    await response.body?.cancel();
    throw tooLarge(scope, shown);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > scope.maxBytes) {
      await reader.cancel();
      throw tooLarge(scope, shown);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
