import type { Dialog, Frame, Page, Request, Response } from 'playwright-core';

/** What the page is showing, as far as a replay is concerned. */
export type PageState =
  | { kind: 'ok' }
  | { kind: 'not_found'; detail: string }
  | { kind: 'auth_expired'; detail: string }
  | { kind: 'transient'; detail: string; frame: Frame }
  | { kind: 'app_error'; detail: string }
  | { kind: 'dialog'; detail: string; dialog: Dialog };

interface FrameFacts {
  title: string;
  headings: string;
  alerts: string;
  password: boolean;
}

const AUTH = /\b(sign[ -]?in|log[ -]?in|session (has )?expired)\b/i;
const TRANSIENT = /\b(503|service unavailable|temporarily unavailable)\b/i;
const APP_ERROR =
  /\b(500|internal server error|application error|unexpected error|something went wrong|exception)\b/i;
const NOT_FOUND =
  /\b(not found|no (member|record|result|account|ticket)s? (found|matches|with)|does not exist|no such)\b/i;

const FACTS_TIMEOUT_MS = 1_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

/** Read in the page, never sent anywhere: a few facts per frame, bounded in size. */
function readFacts(): FrameFacts {
  const text = (selector: string) =>
    Array.from(document.querySelectorAll(selector))
      .filter((element) => (element as HTMLElement).offsetParent !== null || element.tagName === 'TITLE')
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
      .map((element) => (element as HTMLElement).innerText ?? '')
      .join(' | ')
      .slice(0, 400);
  const password = Array.from(document.querySelectorAll('input[type=password]')).some(
    (element) => (element as HTMLElement).offsetParent !== null,
  );
  return {
    title: document.title.slice(0, 200),
    headings: text('h1, h2'),
    alerts: text('[role=alert], [role=status], .error, .not-found'),
    password,
  };
}

/**
 * Watches a page for what classification needs beyond its content: open dialogs and the
 * HTTP status of each frame's document. Detach when the replay ends.
 */
export class PageWatch {
  readonly #page: Page;
  readonly #dialogs: Dialog[] = [];
  readonly #status = new Map<Frame, number>();
  readonly #documents = new Set<Request>();
  readonly #onRequest = (request: Request) => {
    if (request.resourceType() === 'document') this.#documents.add(request);
  };
  readonly #onRequestDone = (request: Request) => {
    this.#documents.delete(request);
  };
  readonly #onDialog = (dialog: Dialog) => {
    this.#dialogs.push(dialog);
  };
  readonly #onResponse = (response: Response) => {
    const request = response.request();
    if (request.resourceType() !== 'document') return;
    const frame = request.frame();
    this.#status.set(frame, response.status());
    this.loads++;
  };
  readonly #onNavigated = () => {
    this.loads++;
  };
  /** Documents loaded so far, and how many of them the last full classification had seen. */
  loads = 0;
  classifiedLoads = -1;

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
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
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
    for (const dialog of this.#dialogs.splice(0)) await dialog.dismiss().catch(() => undefined);
  }
}

/**
 * Classifies the page: open dialog, expired session, transient server error, application
 * error, a "not found" answer, or ok. Frames are read in parallel; a frame that is
 * navigating is skipped (the next classification sees it).
 */
export async function classifyPage(page: Page, watch: PageWatch): Promise<PageState> {
  const dialog = watch.takeDialog();
  if (dialog)
    return { kind: 'dialog', detail: `${dialog.type()}: ${dialog.message().slice(0, 200)}`, dialog };
  // The content can only have become an error, sign-in or answer page by loading a document.
  const loads = watch.loads;
  if (loads === watch.classifiedLoads) return { kind: 'ok' };
  const frames = page.frames();
  // A dialog that opened before its event arrived blocks evaluation: bound every read.
  const facts = await Promise.all(
    frames.map((frame) => withTimeout(frame.evaluate(readFacts), FACTS_TIMEOUT_MS)),
  );
  if (facts.some((fact) => fact === undefined)) {
    const late = watch.takeDialog();
    if (late)
      return { kind: 'dialog', detail: `${late.type()}: ${late.message().slice(0, 200)}`, dialog: late };
  }
  const complete = facts.every((fact) => fact !== undefined);
  for (let index = 0; index < frames.length; index++) {
    const frame = frames[index]!;
    const fact = facts[index];
    const status = watch.status(frame);
    if (!fact) continue;
    const heading = `${fact.title} | ${fact.headings}`;
    if (fact.password || (AUTH.test(heading) && !/\bsign ?out|log ?out\b/i.test(heading))) {
      return { kind: 'auth_expired', detail: `sign-in page shown (${fact.title || fact.headings})` };
    }
    if (status === 503 || status === 502 || status === 504 || TRANSIENT.test(heading)) {
      return { kind: 'transient', detail: `HTTP ${status ?? '?'}: ${heading.slice(0, 120)}`, frame };
    }
    if ((status !== undefined && status >= 500) || APP_ERROR.test(heading)) {
      return { kind: 'app_error', detail: `HTTP ${status ?? '?'}: ${heading.slice(0, 120)}` };
    }
    if (NOT_FOUND.test(fact.alerts) || NOT_FOUND.test(fact.headings) || status === 404) {
      return { kind: 'not_found', detail: (fact.alerts || fact.headings).slice(0, 200) };
    }
  }
  if (complete) watch.classifiedLoads = loads;
  return { kind: 'ok' };
}
