import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

interface StoredEvent {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
}

/**
 * The last messages of one HTTP session, so a client whose stream broke can resume with
 * Last-Event-ID. Bounded: a long session does not grow without end.
 */
export class BoundedEventStore implements EventStore {
  readonly #events: StoredEvent[] = [];
  readonly #limit: number;
  /** Streams whose messages are sent without an id and not kept: no client can resume them. */
  readonly #passing = new Set<string>();
  #next = 0;

  constructor(limit = 256) {
    this.#limit = limit;
  }

  /**
   * Keeps none of this stream's messages until `keep`: a call that answers at once is never
   * resumed, and each answer kept would stay in memory for the next 255 calls.
   */
  pass(streamId: string): void {
    this.#passing.add(streamId);
  }

  /** Keeps this stream's messages from now on: it is being primed, so a client may resume it. */
  keep(streamId: string): void {
    this.#passing.delete(streamId);
  }

  /** The stream ended unprimed: nothing of it was kept, and nothing more will come. */
  forget(streamId: string): void {
    this.#passing.delete(streamId);
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    // The SDK writes an event without an id for an empty one.
    if (this.#passing.has(streamId)) return '';
    const id = `${streamId}_${this.#next++}`;
    this.#events.push({ id, streamId, message });
    if (this.#events.length > this.#limit) this.#events.splice(0, this.#events.length - this.#limit);
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.find((event) => event.id === eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const index = this.#events.findIndex((event) => event.id === lastEventId);
    const last = this.#events[index];
    if (!last) return '';
    for (const event of this.#events.slice(index + 1)) {
      if (event.streamId === last.streamId) await send(event.id, event.message);
    }
    return last.streamId;
  }
}
