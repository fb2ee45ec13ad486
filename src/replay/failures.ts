import type { Page } from 'playwright-core';
import type { Capability } from '../capability/capability.js';
import { LiftError } from '../contract/errors.js';
import type { RunEventType } from '../contract/events.js';
import type { PageHarness } from '../rungs/ui/harness.js';
import type { Target } from '../rungs/ui/locator.js';
import { shapedByInputs } from './absence.js';
import { ambiguousTarget, evidenceScreenshot, surfaceChanged } from './evidence.js';
import type { Settled } from './options.js';
import type { WaitClock } from './wait-clock.js';

/** What a replay's failures are told from: the run they happen in. */
export interface FailureContext {
  page: Page;
  capability: Capability;
  inputs: Record<string, unknown>;
  harness: PageHarness;
  evidenceDir: string;
  /** Whether a step that can change state has reached the page. */
  started(): boolean;
  /** The step running now (0-based). */
  stepIndex(): number;
  emit(type: RunEventType, data?: Record<string, unknown>): void;
}

/**
 * How a replay answers what went wrong: the typed error, with the call's outcome (untouched,
 * or maybe changed) and the page's evidence, or the not_found the capability declares.
 */
export class Failures {
  readonly #context: FailureContext;

  constructor(context: FailureContext) {
    this.#context = context;
  }

  /** How a failure now leaves the application: untouched, or maybe changed. */
  outcome(): 'unknown' | 'not_started' {
    return this.#context.started() ? 'unknown' : 'not_started';
  }

  /** An answer of not_found the capability declares, else the NOT_FOUND error. */
  notFound(detail: string): Settled {
    this.#context.emit('replay-page-classified', { state: 'not_found', detail });
    if (this.#context.capability.outcomes.includes('not_found')) return 'not_found';
    throw new LiftError('NOT_FOUND', `The application has no such record: ${detail}.`, {
      outcome: this.outcome(),
    });
  }

  /**
   * The answer when a wait ran out: SURFACE_CHANGED only on a page at rest, where what the
   * step expected is really absent; on a page still busy, TIMEOUT with the call's outcome, which
   * never counts toward switching the capability off (a load-induced timeout once disabled a
   * capability for every worker).
   */
  async ranOut(
    wait: WaitClock,
    message: string,
    target: Target | undefined,
    structural?: boolean,
  ): Promise<LiftError> {
    if (!wait.busy()) return this.surfaceChanged(message, target, structural);
    this.#context.emit('replay-page-classified', {
      state: 'busy',
      detail: 'the page was still busy when the wait ran out',
    });
    return new LiftError(
      'TIMEOUT',
      `${message} The page was still busy when the wait ran out (a document or script request in flight, or the page answering slowly), so this says nothing about the screen.`,
      { outcome: this.outcome() },
    );
  }

  /**
   * SURFACE_CHANGED, structural (counting toward switching the capability off) only where no
   * input could explain the difference: a page the inputs shaped may lack a record, not a screen.
   */
  surfaceChanged(message: string, target: Target | undefined, structural?: boolean): Promise<LiftError> {
    const { page, capability, inputs } = this.#context;
    const evidence = { inputs, screenshot: (label: string) => this.screenshot(label) };
    const judged = structural ?? !shapedByInputs(capability, this.#context.stepIndex());
    return surfaceChanged(page, evidence, message, target, this.outcome(), judged);
  }

  /** AMBIGUOUS_TARGET, with the page's evidence. */
  ambiguous(message: string, target: Target): Promise<LiftError> {
    const evidence = { inputs: this.#context.inputs, screenshot: (label: string) => this.screenshot(label) };
    return ambiguousTarget(evidence, message, target, this.outcome());
  }

  screenshot(label: string): Promise<string | undefined> {
    return evidenceScreenshot(this.#context.harness, this.#context.evidenceDir, label);
  }
}
