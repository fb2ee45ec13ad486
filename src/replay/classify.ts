import type { Dialog, Frame, Page } from 'playwright-core';
import { errorPageOf, readSkeleton, skeletonOf } from '../capability/fingerprint.js';
import { isAppErrorStatus, isTransientStatus } from '../rungs/ui/http-status.js';
import type { PageTracker } from '../rungs/ui/page-tracker.js';
import { answerWithin } from '../rungs/ui/settle.js';

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
  /** Still parsing: what it shows now is not what it will show. */
  loading: boolean;
  /** The frame's part of the start page skeleton, when asked for. */
  skeleton?: string[];
}

// Words are evidence only in the application's own messages (alerts and status lines) of a
// document a step loaded, and only for capabilities that declare no outcome signs: a record's
// title, a heading or the start page never decides an outcome.
const NOT_FOUND =
  /\b(not found|no (member|record|result|account|ticket)s? (found|matches|with)|does not exist|no such)\b/i;

const FACTS_TIMEOUT_MS = 1_000;

/**
 * Read in the page, never sent anywhere: a few facts per frame, bounded in size.
 * Self-contained (no named helpers): bundlers that keep names wrap them in a helper the page lacks.
 */
export function readFacts(): FrameFacts {
  const [headings, alerts] = ['h1, h2', '[role=alert], [role=status], .error, .not-found'].map((selector) =>
    Array.from(document.querySelectorAll(selector))
      .filter((element) => (element as HTMLElement).offsetParent !== null)
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
      .map((element) => (element as HTMLElement).innerText ?? '')
      .join(' | ')
      .slice(0, 400),
  );
  // A field that sets a new password (an "Add user" form) is no sign-in.
  const password = Array.from(
    document.querySelectorAll('input[type=password]:not([autocomplete="new-password"])'),
  ).some((element) => (element as HTMLElement).offsetParent !== null);
  return {
    title: document.title.slice(0, 200),
    headings: headings ?? '',
    alerts: alerts ?? '',
    password,
    loading: document.readyState === 'loading',
  };
}

function dialogState(dialog: Dialog): PageState {
  return { kind: 'dialog', detail: `${dialog.type()}: ${dialog.message().slice(0, 200)}`, dialog };
}

/**
 * What one frame's facts and status say, or undefined when they say nothing is wrong. The HTTP
 * status of the frame's document decides errors; a password field is only a sign-in page when
 * the replay does not find what it expects there (the caller decides that); words in alerts
 * answer not_found only in a document a step loaded.
 */
function frameState(
  frame: Frame,
  fact: FrameFacts,
  status: number | undefined,
  loaded: { byStep: boolean; wordsAnswer: boolean },
  errorPages: ReadonlySet<string>,
): PageState | undefined {
  if (fact.password)
    return { kind: 'auth_expired', detail: `sign-in page shown (${fact.title || 'a password field'})` };
  const detail = `HTTP ${status ?? '?'}: ${`${fact.title} | ${fact.headings}`.slice(0, 120)}`;
  if (isTransientStatus(status)) return { kind: 'transient', detail, frame };
  if (isAppErrorStatus(status)) return { kind: 'app_error', detail };
  // An application that answers its error page with 200 (behind a proxy, or by design) is known
  // by the page's structure as discovery saw it fail, not by its words.
  const errorPage = fact.skeleton && errorPages.size > 0 ? errorPageOf(fact.skeleton) : undefined;
  if (errorPage !== undefined && errorPages.has(errorPage))
    return { kind: 'app_error', detail: `${detail} (the error page discovery saw)` };
  if (!loaded.byStep) return undefined;
  if (status === 404 || (loaded.wordsAnswer && NOT_FOUND.test(fact.alerts))) {
    return { kind: 'not_found', detail: (fact.alerts || `HTTP ${status}`).slice(0, 200) };
  }
  return undefined;
}

// The skeleton reader is composed in as source: a page function cannot call another one.
const READ_WITH_SKELETON = `(() => ({ ...(${readFacts.toString()})(), skeleton: (${readSkeleton.toString()})() }))()`;

/**
 * Classifies the page: open dialog, expired session, transient server error, application
 * error, a "not found" answer, or ok. Frames are read in parallel, and a frame is read
 * again only after it committed another document (its content can only have become an
 * error, sign-in or answer page by loading one); a frame still parsing is read again.
 */
export class Classifier {
  readonly #page: Page;
  readonly #watch: PageTracker;
  readonly #read = new Map<Frame, { loads: number; facts: FrameFacts }>();
  /** Documents each frame had loaded when the steps began; undefined while on the start page. */
  #atFirstStep: Map<Frame, number> | undefined;
  /** Whether words in the page's messages may answer not_found (no outcome signs declared). */
  readonly #wordsAnswer: boolean;
  /** The application's error pages discovery saw (the capability's errorPages). */
  readonly #errorPages: ReadonlySet<string>;

  constructor(
    page: Page,
    watch: PageTracker,
    options: { wordsAnswer: boolean; errorPages?: readonly string[] } = { wordsAnswer: true },
  ) {
    this.#page = page;
    this.#watch = watch;
    this.#wordsAnswer = options.wordsAnswer;
    this.#errorPages = new Set(options.errorPages ?? []);
  }

  /** The steps begin: from now on a frame that loads another document shows what a step caused. */
  stepsBegin(): void {
    this.#atFirstStep = new Map(this.#page.frames().map((frame) => [frame, this.#watch.frameLoads(frame)]));
  }

  #loaded(frame: Frame): { byStep: boolean; wordsAnswer: boolean } {
    const before = this.#atFirstStep?.get(frame);
    const byStep =
      this.#atFirstStep !== undefined && (before === undefined || this.#watch.frameLoads(frame) > before);
    return { byStep, wordsAnswer: this.#wordsAnswer };
  }

  classify(): Promise<PageState> {
    return this.#classify(false).then(({ state }) => state);
  }

  /**
   * The start page: every frame read afresh, with its skeleton, in the same evaluation as
   * its facts. The skeleton is undefined when a frame could not be read completely.
   */
  async startPage(): Promise<{ state: PageState; skeleton: string[] | undefined }> {
    this.#read.clear();
    this.#atFirstStep = undefined;
    return this.#classify(true);
  }

  async #classify(withSkeleton: boolean): Promise<{ state: PageState; skeleton: string[] | undefined }> {
    const dialog = this.#watch.takeDialog();
    if (dialog) return { state: dialogState(dialog), skeleton: undefined };
    const frames = this.#page.frames();
    const facts = await Promise.all(frames.map((frame) => this.#facts(frame, withSkeleton)));
    if (facts.some((fact) => fact === undefined)) {
      // A dialog that opened before its event arrived blocks evaluation.
      const late = this.#watch.takeDialog();
      if (late) return { state: dialogState(late), skeleton: undefined };
    }
    const complete = facts.every((fact) => fact !== undefined && !fact.loading);
    const skeleton = complete && withSkeleton ? skeletonOf(facts.map((fact) => fact?.skeleton)) : undefined;
    for (const [index, frame] of frames.entries()) {
      const fact = facts[index];
      const state =
        fact && frameState(frame, fact, this.#watch.status(frame), this.#loaded(frame), this.#errorPages);
      if (state) return { state, skeleton };
    }
    return { state: { kind: 'ok' }, skeleton };
  }

  /** A frame's facts: from the last read if it has not loaded since, else read now (bounded). */
  async #facts(frame: Frame, withSkeleton: boolean): Promise<FrameFacts | undefined> {
    const loads = this.#watch.frameLoads(frame);
    const cached = this.#read.get(frame);
    if (cached && cached.loads === loads && !withSkeleton) return cached.facts;
    // A capability that knows the application's error pages compares every document's skeleton.
    const read =
      withSkeleton || this.#errorPages.size > 0
        ? (frame.evaluate(READ_WITH_SKELETON) as Promise<FrameFacts>)
        : frame.evaluate(readFacts);
    const facts = await answerWithin(read, FACTS_TIMEOUT_MS);
    if (facts && !facts.loading) this.#read.set(frame, { loads, facts });
    else this.#read.delete(frame);
    return facts;
  }
}
