import type { IncomingMessage } from 'node:http';

/** The serialised origin of a URL (`http://localhost:5173`), or undefined when it has none. */
export function originOf(text: string): string | undefined {
  try {
    const { origin } = new URL(text);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The allow-list as serialised origins; an entry that is not an origin is a configuration mistake. */
export function allowedOrigins(entries: readonly string[]): Set<string> {
  const origins = new Set<string>();
  for (const entry of entries) {
    const origin = originOf(entry);
    if (!origin) throw new RangeError(`'${entry}' is not an origin (scheme://host[:port]).`);
    origins.add(origin);
  }
  return origins;
}

/**
 * Whether a request may be served as far as its Origin goes. A request without Origin comes from
 * a client that is not a web page and passes; a page's request passes only when every Origin it
 * carries is on the list. This is what stops DNS rebinding: a page on an attacker's name that now
 * resolves to 127.0.0.1 still sends its own origin.
 */
export function originAllowed(request: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  // No Origin at all (every client that is not a page): headersDistinct would copy every header to say so.
  if (request.headers.origin === undefined) return true;
  const values = request.headersDistinct.origin;
  if (!values || values.length === 0) return true;
  return values.every((value) => {
    const origin = originOf(value.trim());
    return origin !== undefined && allowed.has(origin);
  });
}
