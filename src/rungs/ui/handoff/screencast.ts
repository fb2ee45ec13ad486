import type { ServerResponse } from 'node:http';
import type { CDPSession, Page } from 'playwright-core';
import type { HandoffInput } from './input.js';

interface Frame {
  data: string;
  width: number;
  height: number;
}

/**
 * One page's live picture, from Chromium's screencast (Page.startScreencast), sent to every
 * viewer as Server-Sent Events; it runs only while someone watches. Input goes the other way
 * through Playwright's mouse and keyboard, which send Input.dispatchMouseEvent,
 * Input.dispatchKeyEvent and Input.insertText. Nothing typed is logged or kept.
 */
export class Screencast {
  readonly #page: Page;
  readonly #viewers = new Set<ServerResponse>();
  #session: CDPSession | undefined;
  #last: Frame | undefined;

  constructor(page: Page) {
    this.#page = page;
  }

  async watch(response: ServerResponse): Promise<void> {
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    response.write('retry: 1000\n\n');
    this.#viewers.add(response);
    response.on('close', () => {
      this.#viewers.delete(response);
      if (this.#viewers.size === 0) void this.stop();
    });
    if (this.#last) this.#send(response, this.#last);
    if (!this.#session) await this.#start();
  }

  async #start(): Promise<void> {
    const session = await this.#page.context().newCDPSession(this.#page);
    this.#session = session;
    session.on('Page.screencastFrame', (event) => {
      void session.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
      this.#last = {
        data: event.data,
        width: event.metadata.deviceWidth,
        height: event.metadata.deviceHeight,
      };
      for (const viewer of this.#viewers) this.#send(viewer, this.#last);
    });
    const size = this.viewport();
    await session.send('Page.startScreencast', {
      format: 'jpeg',
      quality: 70,
      maxWidth: size.width,
      maxHeight: size.height,
    });
  }

  #send(viewer: ServerResponse, frame: Frame): void {
    viewer.write(`event: frame\ndata: ${JSON.stringify(frame)}\n\n`);
  }

  async stop(): Promise<void> {
    const session = this.#session;
    this.#session = undefined;
    for (const viewer of this.#viewers) viewer.end();
    this.#viewers.clear();
    if (!session) return;
    await session.send('Page.stopScreencast').catch(() => undefined);
    await session.detach().catch(() => undefined);
  }

  viewport(): { width: number; height: number } {
    return this.#page.viewportSize() ?? { width: 1280, height: 800 };
  }

  /** Sends one checked input to the page (a click inside the viewport, text, or an allowed key). */
  async send(input: HandoffInput): Promise<void> {
    if (input.kind === 'click') await this.#page.mouse.click(input.x, input.y);
    else if (input.kind === 'text') await this.#page.keyboard.insertText(input.text);
    else await this.#page.keyboard.press(input.key === 'Space' ? ' ' : input.key);
  }
}
