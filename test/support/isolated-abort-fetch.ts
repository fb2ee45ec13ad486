import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * A fetch for the SDK's StreamableHTTPClientTransport that gives each request its own
 * AbortSignal, tied to the transport's with a listener removed when the request settles.
 * The SDK passes one signal to every request of a connection, and Node's fetch adds an abort
 * listener per request that only garbage collection removes: over thousands of calls the
 * client, not the server, warns of "1,500 abort listeners". Benchmarks and long tests use
 * this so that the warnings they see are the server's.
 */
export const isolatedAbortFetch: FetchLike = async (url, init) => {
  const shared = init?.signal;
  if (!shared) return fetch(url, init);
  const own = new AbortController();
  const forward = () => own.abort(shared.reason);
  if (shared.aborted) forward();
  else shared.addEventListener('abort', forward, { once: true });
  try {
    const response = await fetch(url, { ...init, signal: own.signal });
    if (!response.body) {
      shared.removeEventListener('abort', forward);
      return response;
    }
    // A streamed body (SSE) can still be aborted until it is read to the end.
    const body = response.body.pipeThrough(
      new TransformStream({ flush: () => shared.removeEventListener('abort', forward) }),
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  } catch (error) {
    shared.removeEventListener('abort', forward);
    throw error;
  }
};
