import type { ServerResponse } from 'node:http';
import type { Awaitable } from '../store/awaitable.js';
import { sseHeaders } from './respond.js';

const HEARTBEAT_MS = 15_000;

/**
 * Tells open pages when a set kept in the store changes: the held calls, the handed-over
 * pages. Other processes change them (a waiting `lift call`, an MCP server), so the store is
 * read on a short timer while pages listen; each change is one event with the set's ids.
 */
export class StoreWatch {
  readonly #read: () => Awaitable<string[]>;
  readonly #event: string;
  readonly #pollMs: number;
  readonly #clients = new Set<ServerResponse>();
  #timer: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #last = '';

  constructor(read: () => Awaitable<string[]>, event: string, pollMs = 300) {
    this.#read = read;
    this.#event = event;
    this.#pollMs = pollMs;
  }

  async subscribe(response: ServerResponse): Promise<void> {
    sseHeaders(response);
    const now = await this.#signature();
    if (!this.#timer) this.#last = now;
    response.write(`retry: 2000\nevent: ${this.#event}\ndata: ${now}\n\n`);
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
    return (await this.#read()).join(' ');
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
    for (const client of this.#clients) client.write(`event: ${this.#event}\ndata: ${now}\n\n`);
  }
}
