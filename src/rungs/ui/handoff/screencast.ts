import type { ServerResponse } from 'node:http';
import type { CDPSession, Page } from 'playwright-core';
import { sseHeaders } from './respond.js';

interface Frame {
  data: string;
  width: number;
  height: number;
}

/**
 * One page's live picture, from Chromium's screencast (Page.startScreencast), sent to every
 * console viewer as Server-Sent Events; it runs only while someone watches. Input goes the
 * other way through Playwright's mouse and keyboard, which send Input.dispatchMouseEvent,
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
    sseHeaders(response);
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
    const size = this.#page.viewportSize() ?? { width: 1280, height: 800 };
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

  /** A click at page coordinates (CSS pixels of the page's viewport). */
  async click(x: number, y: number): Promise<void> {
    await this.#page.mouse.click(x, y);
  }

  async type(text: string): Promise<void> {
    await this.#page.keyboard.insertText(text);
  }

  async press(key: string): Promise<void> {
    await this.#page.keyboard.press(key);
  }
}

/** Keys a person may press into the page besides text: editing and moving, nothing that reaches the browser's own UI. */
export const KEYS = new Set([
  'Enter',
  'Tab',
  'Shift+Tab',
  'Backspace',
  'Delete',
  'Escape',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'Space',
]);
