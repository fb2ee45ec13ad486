/**
 * Errors that say a connection was never made: the program refused it, its name does not
 * resolve, or no route leads to it. Nothing can have reached the program, so a call that met
 * one before anything else started did nothing (UPSTREAM_UNAVAILABLE, outcome not_started).
 * A connection dropped once made (ECONNRESET, a timeout) is not one of them: a request may
 * have left.
 */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Chromium's words for the same (a page that could not be loaded at all). */
const BROWSER_NEVER_CONNECTED =
  /net::ERR_(CONNECTION_REFUSED|NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|ADDRESS_UNREACHABLE|INTERNET_DISCONNECTED)\b/;

/** The never-connected reason in an error or its causes (`ECONNREFUSED`, `net::ERR_CONNECTION_REFUSED`), if any. */
export function neverConnected(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    const { code, message, cause, errors } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && NEVER_CONNECTED.has(code)) return code;
    const said = typeof message === 'string' ? BROWSER_NEVER_CONNECTED.exec(message) : null;
    if (said) return said[0];
    // A name with several addresses fails as one AggregateError, each address refused.
    if (Array.isArray(errors) && errors.length > 0 && errors.every((each) => neverConnected(each))) {
      return neverConnected(errors[0]);
    }
    current = cause;
  }
  return undefined;
}
