import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { Runtime } from '../runtime/runtime.js';
import { Screencast } from './screencast.js';

export interface Handoff {
  id: string;
  reason: string;
  startedAt: string;
  page: Page;
  screencast: Screencast;
}

interface Waiting extends Handoff {
  finish: () => void;
}

/**
 * Pages Lift handed to a person in this process (a replay that met an expired session, a
 * discovery that asked for a sign-in). The console shows each one live; "done" gives the page
 * back to the run, which goes on where the page is.
 */
export class HandoffDesk {
  readonly #waiting = new Map<string, Waiting>();

  /** Hands `page` over and resolves when the person presses done (or the deadline passes). */
  handOver(page: Page, reason: string, deadlineMs?: number): Promise<void> {
    const id = `ho_${randomBytes(6).toString('hex')}`;
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = () => {
        clearTimeout(timer);
        const entry = this.#waiting.get(id);
        this.#waiting.delete(id);
        void entry?.screencast.stop();
        resolve();
      };
      // A deadline ends the wait; the run then sees the page as it is and decides (AUTH_REQUIRED).
      if (deadlineMs !== undefined) timer = setTimeout(finish, deadlineMs);
      this.#waiting.set(id, {
        id,
        reason,
        startedAt: new Date().toISOString(),
        page,
        screencast: new Screencast(page),
        finish,
      });
    });
  }

  list(): Handoff[] {
    return [...this.#waiting.values()];
  }

  get(id: string): Handoff | undefined {
    return this.#waiting.get(id);
  }

  finish(id: string): boolean {
    const entry = this.#waiting.get(id);
    entry?.finish();
    return entry !== undefined;
  }

  close(): void {
    for (const entry of [...this.#waiting.values()]) entry.finish();
  }
}

/** The one desk of a runtime, shared by the console and whatever hands pages over in this process. */
export function handoffDesk(runtime: Runtime): Promise<HandoffDesk> {
  return runtime.service('console:handoffs', () => new HandoffDesk());
}
