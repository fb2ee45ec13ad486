import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { HandoffInput } from '../rungs/ui/handoff/input.js';
import type { Runtime } from '../runtime/runtime.js';
import { type HandoffRecord, Handoffs } from '../store/handoffs.js';
import { sseHeaders } from './respond.js';

/** A request to the holding process that does not answer within this is given up. */
const HOP_TIMEOUT_MS = 15_000;

/** What the process holding the page answered to an input: 204, or a status with its reason. */
export interface Forwarded {
  status: number;
  message: string | undefined;
}

/** One request to the holding process's loopback endpoint, with this handoff's token. */
function hop(
  record: HandoffRecord,
  method: 'GET' | 'POST',
  action: string,
  body?: unknown,
): Promise<IncomingMessage> {
  const url = new URL(`/handoffs/${record.id}${action}`, record.endpoint);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, {
      method,
      headers: {
        authorization: `Bearer ${record.token}`,
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
      timeout: HOP_TIMEOUT_MS,
    });
    outgoing.on('response', (response) => {
      outgoing.setTimeout(0);
      resolve(response);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('The process holding the page did not answer.')));
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

async function reasonOf(response: IncomingMessage): Promise<string | undefined> {
  let text = '';
  for await (const chunk of response) text += (chunk as Buffer).toString();
  try {
    return (JSON.parse(text) as { error?: string }).error;
  } catch {
    return text || undefined;
  }
}

/**
 * Pages handed to a person by any process of this home (lift serve, lift call --wait, this
 * console's own runs), read from the store. The console streams each one and forwards the
 * person's input and "done" to the process that holds it, over its loopback endpoint with
 * the handoff's own token (rungs/ui/handoff/endpoint.ts).
 */
export class HandoffBoard {
  readonly #records: Handoffs;

  constructor(runtime: Runtime) {
    this.#records = new Handoffs(runtime.store.db);
  }

  waiting(): HandoffRecord[] {
    return this.#records.waiting();
  }

  /** A handoff a person can take over now, or undefined (unknown, over, or its process is gone). */
  get(id: string): HandoffRecord | undefined {
    return this.#records.waiting().find((record) => record.id === id);
  }

  /** Relays the page's screencast to one viewer until either side stops; false when it cannot. */
  async watch(record: HandoffRecord, viewer: ServerResponse): Promise<boolean> {
    const upstream = await hop(record, 'GET', '/frames').catch(() => undefined);
    if (upstream?.statusCode !== 200) {
      upstream?.resume();
      return false;
    }
    sseHeaders(viewer);
    viewer.on('close', () => upstream.destroy());
    upstream.on('close', () => viewer.end());
    upstream.pipe(viewer);
    return true;
  }

  /** Forwards one input to the page; what is typed passes through and is kept nowhere. */
  async send(record: HandoffRecord, input: HandoffInput): Promise<Forwarded> {
    const response = await hop(record, 'POST', '/input', input);
    return { status: response.statusCode ?? 502, message: await reasonOf(response) };
  }

  /** The person is done: the holding process gives the page back to its run. */
  async done(record: HandoffRecord): Promise<boolean> {
    const response = await hop(record, 'POST', '/done').catch(() => undefined);
    response?.resume();
    return response?.statusCode === 204;
  }
}
