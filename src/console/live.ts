import type { ServerResponse } from 'node:http';
import type { Runtime } from '../runtime/runtime.js';
import { sseHeaders } from './respond.js';

const HEARTBEAT_MS = 15_000;

/**
 * Tells open pages when the set of held calls changes. Calls are held by other processes (a
 * waiting `lift call`, an MCP server), so the store is read on a short timer while pages listen.
 */
export class HeldWatch {
  readonly #runtime: Runtime;
  readonly #pollMs: number;
  readonly #clients = new Set<ServerResponse>();
  #timer: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #last = '';

  constructor(runtime: Runtime, pollMs = 300) {
    this.#runtime = runtime;
    this.#pollMs = pollMs;
  }

  async subscribe(response: ServerResponse): Promise<void> {
    sseHeaders(response);
    const now = await this.#signature();
    if (!this.#timer) this.#last = now;
    response.write(`retry: 2000\nevent: held\ndata: ${now}\n\n`);
    this.#clients.add(response);
    response.on('close', () => {
      this.#clients.delete(response);
      if (this.#clients.size === 0) this.#stop();
    });
    this.#start();
  }

  close(): void {
    this.#stop();
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }

  async #signature(): Promise<string> {
    return (await this.#runtime.store.approvals.list(['pending'])).map((approval) => approval.id).join(' ');
  }

  #start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.#check(), this.#pollMs);
    this.#heartbeat = setInterval(() => {
      for (const client of this.#clients) client.write(': still here\n\n');
    }, HEARTBEAT_MS);
  }

  #stop(): void {
    clearInterval(this.#timer);
    clearInterval(this.#heartbeat);
    this.#timer = undefined;
    this.#heartbeat = undefined;
  }

  async #check(): Promise<void> {
    // A read that fails (the shared store restarting) is tried again at the next tick.
    const now = await this.#signature().catch(() => this.#last);
    if (now === this.#last) return;
    this.#last = now;
    for (const client of this.#clients) client.write(`event: held\ndata: ${now}\n\n`);
  }
}
