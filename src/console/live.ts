import type { ServerResponse } from 'node:http';
import { sseHeaders } from './respond.js';

const HEARTBEAT_MS = 15_000;

/**
 * Tells open pages when a set kept in the store changes: the held calls, the handed-over
 * pages. Other processes change them (a waiting `lift call`, an MCP server), so the store is
 * read on a short timer while pages listen; each change is one event with the set's ids.
 */
export class StoreWatch {
  readonly #read: () => string[];
  readonly #event: string;
  readonly #pollMs: number;
  readonly #clients = new Set<ServerResponse>();
  #timer: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #last = '';

  constructor(read: () => string[], event: string, pollMs = 300) {
    this.#read = read;
    this.#event = event;
    this.#pollMs = pollMs;
  }

  subscribe(response: ServerResponse): void {
    sseHeaders(response);
    const now = this.#signature();
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

  #signature(): string {
    return this.#read().join(' ');
  }

  #start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.#check(), this.#pollMs);
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

  #check(): void {
    const now = this.#signature();
    if (now === this.#last) return;
    this.#last = now;
    for (const client of this.#clients) client.write(`event: ${this.#event}\ndata: ${now}\n\n`);
  }
}
