import type { Dialog, FileChooser, Frame, Page, Request, Response } from 'playwright-core';
import type { Redactor } from './redact.js';

/** A request the request guard stopped before it left the browser. Never holds a query string. */
export interface BlockedRequest {
  origin: string;
  /** The URL's path, without query or fragment. */
  path: string;
  /** origin + path, for messages. */
  url: string;
  reason: string;
  /** A page or frame load (a form post included), not a subresource. */
  navigation: boolean;
  /** A hop of a redirect, not the request the page made. */
  redirect: boolean;
  at: number;
}

/** A stopped request as it may be shown: bound values in its path and reason become placeholders. */
export function redactedRequest(blocked: BlockedRequest, redactor: Redactor): BlockedRequest {
  const path = redactor.text(blocked.path);
  return { ...blocked, path, url: `${blocked.origin}${path}`, reason: redactor.text(blocked.reason) };
}

/** Origin and redacted path of a URL: never its query, which carries bound values. */
export function redactedOriginAndPath(url: string, redactor: Redactor): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${redactor.text(parsed.pathname)}`;
  } catch {
    return '';
  }
}

type Listener<T> = (value: T) => void;

/** Methods that only read, by HTTP's own definition (RFC 9110, 9.2.1). */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Everything about a page beyond its content, in one place for every user of the page (UI
 * tools, discovery, replay, handoff): the open dialog and file chooser, each frame's document
 * status, server errors, documents in flight and loaded, and the requests the guard stopped.
 * One tracker per page, for the page's whole life: warm pages keep theirs between calls.
 */
export class PageTracker {
  readonly page: Page;
  readonly #status = new WeakMap<Frame, number>();
  readonly #frameLoads = new WeakMap<Frame, number>();
  readonly #documents = new Set<Request>();
  /** Script requests (XHR, fetch) in flight, with when each started. */
  readonly #fetches = new Map<Request, number>();
  readonly #idle: Array<() => void> = [];
  readonly #serverErrors: Array<{ at: number; status: number }> = [];
  readonly #blocked: BlockedRequest[] = [];
  readonly #onDialog = new Set<Listener<Dialog>>();
  readonly #onBlocked = new Set<Listener<BlockedRequest>>();
  readonly #onPopupClosed = new Set<Listener<string>>();
  #dialog: Dialog | undefined;
  #fileChooser: FileChooser | undefined;
  #lastActivity = 0;
  /** Documents committed in any frame so far. */
  loads = 0;
  /**
   * Requests sent so far that can change the application: any method but GET, HEAD and OPTIONS
   * (a form post, an XHR save), and a GET with a query that the server answered by sending the
   * browser elsewhere (an older application's `save.php?title=…` that redirects to the saved
   * page): a search answers with its results, not a redirect. Discovery tells a write from a
   * look by them; one counted wrongly is only rehearsed as a write, never sent twice.
   */
  unsafeRequests = 0;

  static readonly #trackers = new WeakMap<Page, PageTracker>();

  /** The page's tracker, made (and its listeners attached) on first use. */
  static of(page: Page): PageTracker {
    let tracker = PageTracker.#trackers.get(page);
    if (!tracker) {
      tracker = new PageTracker(page);
      PageTracker.#trackers.set(page, tracker);
    }
    return tracker;
  }

  private constructor(page: Page) {
    this.page = page;
    page.on('dialog', (dialog) => {
      this.#dialog = dialog;
      for (const listener of this.#onDialog) listener(dialog);
    });
    page.on('filechooser', (chooser) => {
      this.#fileChooser = chooser;
    });
    page.on('request', (request) => this.#requestStarted(request));
    page.on('requestfinished', (request) => this.#requestDone(request));
    page.on('requestfailed', (request) => this.#requestDone(request));
    page.on('response', (response) => this.#responded(response));
    // A committed navigation is the moment a frame's content is replaced.
    page.on('framenavigated', (frame) => {
      this.loads++;
      this.#frameLoads.set(frame, (this.#frameLoads.get(frame) ?? 0) + 1);
      this.#lastActivity = Date.now();
    });
  }

  /** The dialog open now, if any; it stays open until handled. */
  get dialog(): Dialog | undefined {
    return this.#dialog;
  }

  get fileChooser(): FileChooser | undefined {
    return this.#fileChooser;
  }

  /** The open dialog, now taken: whoever takes it accepts or dismisses it. */
  takeDialog(): Dialog | undefined {
    const dialog = this.#dialog;
    this.#dialog = undefined;
    return dialog;
  }

  /** Forgets the open dialog and file chooser once an action handled them. */
  clearBlocking(): void {
    this.#dialog = undefined;
    this.#fileChooser = undefined;
  }

  /** Dismisses a dialog left open (a warm page goes back to its pool clean). */
  async dismissDialog(): Promise<void> {
    const dialog = this.takeDialog();
    await dialog?.dismiss().catch(() => undefined);
  }

  /** A document (page or frame load, form post) is in flight. */
  get loading(): boolean {
    return this.#documents.size > 0;
  }

  /** Whether a script request (XHR, fetch) that started at or after `since` is still in flight. */
  fetchingSince(since: number): boolean {
    for (const started of this.#fetches.values()) if (started >= since) return true;
    return false;
  }

  /** When a document last started, finished or committed. */
  get lastActivity(): number {
    return this.#lastActivity;
  }

  /** HTTP status of the frame's last document. */
  status(frame: Frame): number | undefined {
    return this.#status.get(frame);
  }

  /** Forgets a frame's status before it is loaded again. */
  forget(frame: Frame): void {
    this.#status.delete(frame);
  }

  /** Documents the frame has committed since the tracker began. */
  frameLoads(frame: Frame): number {
    return this.#frameLoads.get(frame) ?? 0;
  }

  /** HTTP status of a 5xx document load since the given time, if any. */
  serverErrorSince(time: number): number | undefined {
    return this.#serverErrors.find((entry) => entry.at >= time)?.status;
  }

  /** Requests the guard stopped since the given time, oldest first. */
  blockedSince(time: number): BlockedRequest[] {
    return this.#blocked.filter((entry) => entry.at >= time);
  }

  /** Called by the request guard for each request it stopped. */
  recordBlocked(blocked: BlockedRequest): void {
    this.#blocked.push(blocked);
    if (this.#blocked.length > 200) this.#blocked.shift();
    for (const listener of this.#onBlocked) listener(blocked);
  }

  /** Called by the request guard when it closed a window the page opened. */
  recordPopupClosed(url: string): void {
    for (const listener of this.#onPopupClosed) listener(url);
  }

  /** Hears blocked requests, dialogs and closed popups until the returned function is called. */
  listen(listeners: {
    blocked?: Listener<BlockedRequest>;
    dialog?: Listener<Dialog>;
    popupClosed?: Listener<string>;
  }): () => void {
    const pairs = [
      [this.#onBlocked, listeners.blocked],
      [this.#onDialog, listeners.dialog],
      [this.#onPopupClosed, listeners.popupClosed],
    ] as Array<[Set<Listener<never>>, Listener<never> | undefined]>;
    for (const [set, listener] of pairs) if (listener) set.add(listener);
    return () => {
      for (const [set, listener] of pairs) if (listener) set.delete(listener);
    };
  }

  /**
   * When a document is in flight, or came less than `recentMs` ago, waits (bounded) until none
   * is and answers true: what was looked for may be on the page that lands. False at once
   * otherwise, so a look for something the page never had is not drawn out.
   */
  async documentArrived(recentMs: number, timeoutMs: number): Promise<boolean> {
    if (!this.loading && Date.now() - this.#lastActivity >= recentMs) return false;
    await this.documentsSettled(timeoutMs);
    return true;
  }

  /** Waits (bounded) until no document is in flight. */
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

  #requestStarted(request: Request): void {
    if (!SAFE_METHODS.has(request.method()) || redirectedQuery(request)) this.unsafeRequests++;
    const type = request.resourceType();
    if (type === 'xhr' || type === 'fetch') this.#fetches.set(request, Date.now());
    if (type !== 'document') return;
    this.#documents.add(request);
    this.#lastActivity = Date.now();
  }

  #requestDone(request: Request): void {
    this.#fetches.delete(request);
    if (!this.#documents.delete(request)) return;
    this.#lastActivity = Date.now();
    if (this.#documents.size > 0) return;
    for (const wake of this.#idle.splice(0)) wake();
  }

  #responded(response: Response): void {
    const request = response.request();
    if (request.resourceType() !== 'document') return;
    const status = response.status();
    try {
      this.#status.set(request.frame(), status);
    } catch {
      // A new window's first document has no frame yet; the guard stops those anyway.
    }
    if (status >= 500) this.#serverErrors.push({ at: Date.now(), status });
    if (this.#serverErrors.length > 50) this.#serverErrors.shift();
  }
}

/** A document request that a redirect answered a GET with a query to: that GET likely wrote. */
function redirectedQuery(request: Request): boolean {
  const from = request.redirectedFrom();
  if (!from || request.resourceType() !== 'document' || from.method() !== 'GET') return false;
  return new URL(from.url()).search !== '';
}
