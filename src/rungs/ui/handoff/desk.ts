import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { Runtime } from '../../../runtime/runtime.js';
import { type HandoffState, Handoffs } from '../../../store/handoffs.js';
import { HandoffEndpoint, type HeldPage } from './endpoint.js';
import { Screencast } from './screencast.js';

/** A page handed to a person, and what the console shows of it. */
export interface PageHandoff {
  page: Page;
  /** What the person is asked to do ("Sign in again: ..."). */
  reason: string;
  /** How long the person has; then the run takes the page back as it is. */
  deadlineMs: number;
  tool?: string | undefined;
  runId?: string | undefined;
  /** The call was cancelled: the page goes back to the run at once. */
  signal?: AbortSignal | undefined;
}

export type HandoffEnd = Exclude<HandoffState, 'waiting'>;

/**
 * The pages this process holds for a person (a replay that met an expired session or a
 * second factor). Each is recorded in the store with the loopback endpoint and a token of its
 * own, so a console in this process or any other of the same home shows it, streams it and
 * forwards the person's input; "done" gives the page back to the run, which goes on from
 * where the page is.
 */
export class HandoffDesk {
  readonly #records: Handoffs;
  readonly #scrub: (text: string) => string;
  readonly #held = new Map<string, HeldPage & { end(state: HandoffEnd): void }>();
  #endpoint: Promise<HandoffEndpoint> | undefined;

  /** `scrub` takes stored secrets out of what is recorded (a page title can carry one). */
  constructor(records: Handoffs, scrub: (text: string) => string = (text) => text) {
    this.#records = records;
    this.#scrub = scrub;
  }

  /** Hands the page over; resolves with how the handoff ended (done, expired, or ended by the run). */
  async handOver(request: PageHandoff): Promise<HandoffEnd> {
    this.#endpoint ??= HandoffEndpoint.start((id) => this.#held.get(id));
    const endpoint = await this.#endpoint;
    const id = `ho_${randomBytes(6).toString('hex')}`;
    const token = randomBytes(32).toString('hex');
    const screencast = new Screencast(request.page);
    return new Promise<HandoffEnd>((resolve) => {
      const end = (state: HandoffEnd) => {
        if (!this.#held.delete(id)) return;
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', cancelled);
        this.#records.end(id, state);
        void screencast.stop();
        resolve(state);
      };
      const cancelled = () => end('ended');
      // The deadline gives the page back as it is; the run then decides (AUTH_REQUIRED).
      const timer = setTimeout(() => end('expired'), request.deadlineMs);
      this.#held.set(id, { token, screencast, finish: () => end('done'), end });
      this.#records.open({
        id,
        reason: this.#scrub(request.reason),
        tool: request.tool,
        runId: request.runId,
        endpoint: endpoint.url,
        token,
        deadlineAt: Date.now() + request.deadlineMs,
      });
      if (request.signal?.aborted) end('ended');
      else request.signal?.addEventListener('abort', cancelled, { once: true });
    });
  }

  /** Ends every handoff still waiting (the process is stopping) and closes the endpoint. */
  async close(): Promise<void> {
    for (const held of [...this.#held.values()]) held.end('ended');
    const endpoint = this.#endpoint;
    this.#endpoint = undefined;
    await (await endpoint?.catch(() => undefined))?.close();
  }
}

/** The one desk of a runtime: every page its tools hand to a person. */
export function handoffDesk(runtime: Runtime): Promise<HandoffDesk> {
  return runtime.service(
    'ui-handoffs',
    () => new HandoffDesk(new Handoffs(runtime.store.db), (text) => runtime.store.secrets.scrub(text)),
  );
}

/** Hands a page of this runtime to a person (what attended capability tools do on an expired session). */
export async function handOverPage(runtime: Runtime, request: PageHandoff): Promise<HandoffEnd> {
  return (await handoffDesk(runtime)).handOver(request);
}
