import type { Page } from 'playwright-core';
import type { Capability } from '../capability/capability.js';
import type { PageState } from './classify.js';
import type { Failures } from './failures.js';
import type { Settled } from './options.js';
import type { SeenTarget } from './seen-target.js';
import type { WaitClock } from './wait-clock.js';

/**
 * What the two waits of a step, for its target (find-target.ts) and for its postcondition
 * (settle.ts), use of the replay: the page, the run's answers, and the clock of a wait.
 */
export interface StageHost {
  readonly page: Page;
  readonly capability: Capability;
  /** Bound of each wait of a step. */
  readonly timeoutMs: number;
  /** What the last postcondition saw; find takes it as found, settle records it. */
  readonly seen: SeenTarget;
  /** A wait that begins now, counting the last action's requests as the page's work. */
  startWait(): WaitClock;
  /** A request the guard stopped since the replay began ends it. */
  assertNothingBlocked(): void;
  /** What the page shows now: a sign-in, an error page, a dialog, a message, or ok. */
  classify(): Promise<PageState>;
  /** What the replay does about a page state: go on ('ok'), answer, start over, or throw. */
  answer(state: PageState): Promise<Settled>;
  /** Whether the page shows the outcome's sign discovery saw after this many steps. */
  signShown(outcome: 'not_found' | 'already_exists', after: number): Promise<boolean>;
  /** The typed errors a wait ends in, and the not_found the capability declares. */
  readonly failures: Failures;
}
