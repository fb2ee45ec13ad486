import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { BoundedEventStore } from './event-store.js';

/**
 * A call still running after this long gets its priming event: from then on a client whose
 * stream breaks resumes it with Last-Event-ID. A call that answers sooner needs none: its
 * answer is already on the wire.
 */
export const PRIME_AFTER_MS = 100;

type PrimingWriter = (
  controller: ReadableStreamDefaultController<Uint8Array>,
  encoder: TextEncoder,
  streamId: string,
  protocolVersion: string,
) => Promise<void>;

interface StreamEntry {
  controller?: unknown;
  cleanup: () => void;
}

/** The private members of the SDK's transport (1.32) this module relies on. */
interface SdkInternals {
  _webStandardTransport?: {
    writePrimingEvent?: PrimingWriter;
    _streamMapping?: Map<string, StreamEntry>;
  };
}

/**
 * Makes the transport prime a call's stream only once the call has run for `afterMs`. With an
 * event store the SDK writes a priming event (an id and no data) at the head of every POST
 * response, and the Node adapter under it, finding one chunk ready and the next not, waits a
 * timer tick before it sends anything: a no-op call took twice as long as without the store.
 * Delayed, the priming event reaches only the calls whose stream is worth resuming, and the
 * store keeps only their messages; a client that resumes (GET with Last-Event-ID) is served
 * from it exactly as before, and so is the session's GET stream, which is never deferred.
 *
 * Returns false, leaving the SDK's own priming in place, when the SDK no longer has these
 * members; test/serve/http-resume.test.ts then fails on the priming event of an ordinary call.
 */
export function deferPriming(
  transport: StreamableHTTPServerTransport,
  store: BoundedEventStore,
  afterMs = PRIME_AFTER_MS,
): boolean {
  const web = (transport as unknown as SdkInternals)._webStandardTransport;
  const prime = web?.writePrimingEvent;
  const streams = web?._streamMapping;
  if (!web || typeof prime !== 'function' || !(streams instanceof Map)) return false;
  web.writePrimingEvent = async (controller, encoder, streamId, protocolVersion) => {
    // The SDK registers the stream before it primes it.
    const stream = streams.get(streamId);
    if (!stream) return;
    store.pass(streamId);
    const timer = setTimeout(() => {
      // The client went away (or resumed onto another stream) before the call answered.
      if (streams.get(streamId)?.controller !== controller) return store.forget(streamId);
      store.keep(streamId);
      prime.call(web, controller, encoder, streamId, protocolVersion).catch(() => {
        // The stream closed while the event was being stored: the call has answered.
      });
    }, afterMs);
    // The call answered (its stream ends): a timer left to run out would wake the process
    // once per call for nothing.
    const cleanup = stream.cleanup;
    stream.cleanup = () => {
      clearTimeout(timer);
      store.forget(streamId);
      cleanup();
    };
  };
  return true;
}
