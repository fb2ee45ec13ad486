import type { Page } from 'playwright-core';

/**
 * What act-and-verify needs to tell "nothing happened" from "something is still loading"
 * (the page's tracker provides it). Every wait here is bounded by a deadline; polling reads
 * the page state, it never sleeps a fixed time instead of looking.
 */
export interface Activity {
  /** A document load is in flight. */
  readonly loading: boolean;
  /** When a document last started, finished or committed. */
  readonly lastActivity: number;
  /** Whether a script request (XHR, fetch) that started at or after `since` is still in flight. */
  fetchingSince(since: number): boolean;
}

/**
 * The page's state as one comparable string, cheap enough to poll: for every frame its URL
 * and a digest of its visible text, its form fields (value, checked, disabled) and its
 * element count. Undefined while a document is being replaced.
 */
export async function pageFingerprint(page: Page): Promise<string | undefined> {
  try {
    const parts = await Promise.all(
      page.frames().map(async (frame) => {
        const digest = await answerWithin(
          frame.evaluate(() => {
            const body = document.body;
            if (!body) return 'empty';
            const fields = Array.from(document.querySelectorAll('input, textarea, select, button')).map(
              (node) => {
                const field = node as HTMLInputElement;
                return `${field.value ?? ''}|${field.checked ? 1 : 0}|${field.disabled ? 1 : 0}`;
              },
            );
            // biome-ignore lint/performance/useDomNodeTextContent: what a person sees is the state that matters.
            const text = `${body.innerText}\u0000${fields.join('\u0001')}\u0000${document.getElementsByTagName('*').length}`;
            let hash = 2166136261;
            for (let index = 0; index < text.length; index++) {
              hash ^= text.charCodeAt(index);
              hash = Math.imul(hash, 16777619);
            }
            return `${document.readyState}:${text.length}:${(hash >>> 0).toString(36)}`;
          }),
          FINGERPRINT_TIMEOUT_MS,
        );
        // An error page or a frame of another origin: its URL is all there is to compare.
        return `${frame.url()} ${digest ?? 'opaque'}`;
      }),
    );
    if (parts.some((part) => part.includes(' loading:'))) return undefined;
    return parts.join('\n');
  } catch {
    return undefined;
  }
}

const FINGERPRINT_TIMEOUT_MS = 2_000;

/**
 * The answer of a read in the page, or undefined when it fails or has not come in time (a
 * page blocked by a dialog never answers, a frame being replaced throws).
 */
export function answerWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export interface SettleOptions {
  /** Absolute time (epoch ms) after which the wait gives up. */
  deadline: number;
  /** How long the page must show no change and load nothing before "no change" is concluded. */
  quietMs: number;
  /** Reads the state; undefined while it cannot be read (a document is loading). */
  read: () => Promise<string | undefined>;
  /** Reports an interruption (a dialog opened) that ends the wait at once. */
  interrupted: () => boolean;
  /** True when the new state is the one expected (ends the wait early once it holds). */
  expected?: (state: string) => boolean;
  activity: Activity;
  startedAt: number;
}

export type SettleOutcome =
  | { kind: 'changed'; state: string; settled: boolean }
  | { kind: 'unchanged'; state: string | undefined }
  | { kind: 'interrupted' }
  | { kind: 'timeout'; state: string | undefined };

const POLL_MS = 40;
const FETCH_WAIT_MS = 5_000;
const STABLE_READS = 2;

/**
 * Waits until the state differs from `before` and holds still for two reads (and no
 * document is loading), or until the quiet period passes with no change and no load, or
 * until the deadline. A late update inside the quiet period still counts as a change.
 */
export async function waitForSettle(
  before: string | undefined,
  options: SettleOptions,
): Promise<SettleOutcome> {
  let last: string | undefined;
  let stable = 0;
  for (;;) {
    if (options.interrupted()) return { kind: 'interrupted' };
    const state = await options.read();
    if (options.interrupted()) return { kind: 'interrupted' };
    const now = Date.now();
    if (state !== undefined && state !== before) {
      stable = state === last ? stable + 1 : 0;
      last = state;
      const expectedNow = options.expected?.(state) ?? false;
      // A page that answers a click with "Loading..." and fills itself from a script request
      // has changed but not settled: its new content is still on the way (Roundcube's folder
      // list). A request that never ends (a long poll) is waited on only so long.
      const fetching =
        now - options.startedAt < FETCH_WAIT_MS && options.activity.fetchingSince(options.startedAt);
      if (!options.activity.loading && (expectedNow || (!fetching && stable >= STABLE_READS))) {
        return { kind: 'changed', state, settled: true };
      }
    } else if (state !== undefined) {
      last = state;
      stable = 0;
      const quietSince = Math.max(options.startedAt, options.activity.lastActivity);
      if (!options.activity.loading && now - quietSince >= options.quietMs)
        return { kind: 'unchanged', state };
    }
    if (now >= options.deadline) {
      if (last !== undefined && last !== before) return { kind: 'changed', state: last, settled: false };
      return { kind: 'timeout', state: last };
    }
    await pause(Math.min(POLL_MS, Math.max(0, options.deadline - now)));
  }
}
