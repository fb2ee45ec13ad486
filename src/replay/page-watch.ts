import type { Dialog, Frame, Page, Request, Response } from 'playwright-core';

/**
 * Watches a page for what a replay needs beyond its content: open dialogs, documents in
 * flight, the HTTP status of each frame's document, and how many documents each frame has
 * loaded (so what was read from a frame is read again only after it changed). Detach when
 * the replay ends.
 */
export class PageWatch {
  readonly #page: Page;
  readonly #dialogs: Dialog[] = [];
  readonly #status = new Map<Frame, number>();
  readonly #frameLoads = new Map<Frame, number>();
  readonly #documents = new Set<Request>();
  readonly #idle: (() => void)[] = [];
  /** Documents committed in any frame so far. */
  loads = 0;

  readonly #onRequest = (request: Request) => {
    if (request.resourceType() === 'document') this.#documents.add(request);
  };
  readonly #onRequestDone = (request: Request) => {
    if (!this.#documents.delete(request) || this.#documents.size > 0) return;
    for (const wake of this.#idle.splice(0)) wake();
  };
  readonly #onDialog = (dialog: Dialog) => {
    this.#dialogs.push(dialog);
  };
  readonly #onResponse = (response: Response) => {
    const request = response.request();
    if (request.resourceType() === 'document') this.#status.set(request.frame(), response.status());
  };
  // A committed navigation is the moment a frame's content is replaced.
  readonly #onNavigated = (frame: Frame) => {
    this.loads++;
    this.#frameLoads.set(frame, (this.#frameLoads.get(frame) ?? 0) + 1);
  };

  constructor(page: Page) {
    this.#page = page;
    page.on('dialog', this.#onDialog);
    page.on('response', this.#onResponse);
    page.on('request', this.#onRequest);
    page.on('framenavigated', this.#onNavigated);
    page.on('requestfinished', this.#onRequestDone);
    page.on('requestfailed', this.#onRequestDone);
  }

  /** Waits (bounded) until no document (page or frame load, form post) is in flight. */
  async documentsSettled(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.#documents.size > 0 && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, deadline - Date.now());
        this.#idle.push(resolve);
      });
      clearTimeout(timer);
      // A redirect finishes one request and starts the next in the same batch of events.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Documents the frame has committed since the watch began. */
  frameLoads(frame: Frame): number {
    return this.#frameLoads.get(frame) ?? 0;
  }

  takeDialog(): Dialog | undefined {
    return this.#dialogs.shift();
  }

  status(frame: Frame): number | undefined {
    return this.#status.get(frame);
  }

  forget(frame: Frame): void {
    this.#status.delete(frame);
  }

  /** Dismisses any dialog still open and stops listening. */
  async detach(): Promise<void> {
    this.#page.off('dialog', this.#onDialog);
    this.#page.off('response', this.#onResponse);
    this.#page.off('request', this.#onRequest);
    this.#page.off('framenavigated', this.#onNavigated);
    this.#page.off('requestfinished', this.#onRequestDone);
    this.#page.off('requestfailed', this.#onRequestDone);
    for (const wake of this.#idle.splice(0)) wake();
    for (const dialog of this.#dialogs.splice(0)) await dialog.dismiss().catch(() => undefined);
  }
}
