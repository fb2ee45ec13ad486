import { pageFingerprint } from '../capability/fingerprint.js';
import { framePath } from '../capability/page-texts.js';
import type { PageHarness } from '../rungs/ui/harness.js';
import type { StepResult } from '../rungs/ui/step.js';

/**
 * What discovery notes of one action for the compiler and the rehearsal, never for the
 * explorer: the structure of the page it ran on, whether the page sent anything that can
 * change the application while it ran and settled, and where the page was then.
 */
export interface ActionTrace {
  /** The skeleton fingerprint of the page the action looked for its target on. */
  page?: string;
  /** A request other than GET, HEAD or OPTIONS left the page (a form post, an XHR save). */
  wrote: boolean;
  /** The page's URL once the action's work settled. */
  urlAfter: string;
  /** Each named frame's URL then (a form posted in a frame leaves the top page where it was). */
  framesAfter?: FrameUrl[];
}

/** Where one frame was, by the path of iframe titles targets name it by. */
export interface FrameUrl {
  path: string[];
  url: string;
}

/** Actions that only look: nothing they do sets the page to work. */
const LOOKS_ONLY = new Set(['read', 'wait_for']);

/** Collects the traces of one act batch, each closed when the next action begins (after the batch's settle) or at the end. */
export class ActionTraces {
  readonly #harness: PageHarness;
  readonly #traces = new Map<number, ActionTrace>();
  #open: { index: number; unsafe: number; page?: string; startedAt: number } | undefined;

  constructor(harness: PageHarness) {
    this.#harness = harness;
  }

  /** Before an action: the page's structure (for one with a target) and the requests sent so far. */
  async begin(index: number, hasTarget: boolean): Promise<void> {
    await this.#close();
    const { tracker, page } = this.#harness;
    // A page under a dialog cannot be read; the action is about the dialog anyway.
    const fingerprint =
      hasTarget && !tracker.dialog ? await pageFingerprint(page).catch(() => undefined) : undefined;
    this.#open = {
      index,
      unsafe: tracker.unsafeRequests,
      startedAt: Date.now(),
      ...(fingerprint?.complete ? { page: fingerprint.fingerprint } : {}),
    };
  }

  /** After the batch: the last action that acted gets the settle the batch gives every other one. */
  async end(results: readonly StepResult[]): Promise<ReadonlyMap<number, ActionTrace>> {
    const last = this.#open && results.find((result) => result.index === this.#open?.index);
    if (this.#open && last?.status === 'executed' && !LOOKS_ONLY.has(last.op))
      await this.#harness.settleAfterStep(this.#open.startedAt);
    await this.#close();
    return this.#traces;
  }

  async #close(): Promise<void> {
    const open = this.#open;
    if (!open) return;
    this.#open = undefined;
    const { tracker, page } = this.#harness;
    const wrote = tracker.unsafeRequests > open.unsafe;
    // Only a write's frames matter (its read-back starts there); a frame under a dialog is not asked.
    const frames = wrote && !tracker.dialog ? await framesOf(this.#harness) : [];
    this.#traces.set(open.index, {
      ...(open.page ? { page: open.page } : {}),
      wrote,
      urlAfter: page.url(),
      ...(frames.length > 0 ? { framesAfter: frames } : {}),
    });
  }
}

async function framesOf(harness: PageHarness): Promise<FrameUrl[]> {
  const children = harness.page.frames().filter((frame) => frame.parentFrame() !== null);
  const paths = await Promise.all(children.map((frame) => framePath(frame).catch(() => undefined)));
  return children.flatMap((frame, index) => {
    const path = paths[index];
    return path && path.length > 0 ? [{ path, url: frame.url() }] : [];
  });
}
