import type { Capability } from '../capability/capability.js';
import { LiftError } from '../contract/errors.js';
import type { RunEventType } from '../contract/events.js';
import type { PageHarness } from '../rungs/ui/harness.js';
import type { Classifier, PageState } from './classify.js';
import type { ReplayOptions, Settled } from './options.js';

/** What answering a page state needs of the replay. */
export interface PageStateContext {
  capability: Capability;
  harness: PageHarness;
  classifier: Classifier;
  options: Pick<ReplayOptions, 'handoff' | 'effectClass'>;
  timeoutMs: number;
  /** Whether a step that can change state has reached the page. */
  started(): boolean;
  emit(type: RunEventType, data?: Record<string, unknown>): void;
  screenshot(label: string): Promise<string | undefined>;
}

/**
 * Turns what the page shows into what the replay does next: go on, answer not found, start
 * over after a sign-in or a handoff, or stop with a typed error. Counts the reloads and
 * handoffs it spent; each is allowed once.
 */
export class PageStates {
  reloads = 0;
  handoffs = 0;
  #signedIn = false;
  readonly #context: PageStateContext;

  constructor(context: PageStateContext) {
    this.#context = context;
  }

  async answer(state: PageState): Promise<Settled> {
    if (state.kind !== 'ok')
      this.#context.emit('replay-page-classified', { state: state.kind, detail: state.detail });
    switch (state.kind) {
      case 'ok':
        return 'ok';
      case 'not_found':
        if (this.#context.capability.outcomes.includes('not_found')) return 'not_found';
        throw new LiftError('NOT_FOUND', `The application answered: ${state.detail}`);
      case 'dialog':
        return this.#dialog(state);
      case 'transient':
        return this.#transient(state);
      case 'auth_expired':
        return this.#authExpired(state);
      case 'app_error':
        throw new LiftError('APP_ERROR', `The application showed an error page: ${state.detail}`, {
          outcome: this.#outcome(),
          details: { screenshot: await this.#context.screenshot('app-error') },
        });
    }
  }

  /** A request the guard stopped since `since` ends the replay: the page went somewhere it may not. */
  assertNothingBlocked(since: number): void {
    const [blocked] = this.#context.harness.tracker.blockedSince(since);
    if (!blocked) return;
    const { redactor } = this.#context.harness;
    throw new LiftError(
      'POLICY_BLOCKED',
      `The page tried to load ${redactor.text(blocked.url)}, which the policy does not allow (${redactor.text(blocked.reason)}); the request was stopped before it was sent.`,
      {
        hint: 'The application sent the replay somewhere its policy does not allow. A person should look at the page before another replay.',
        outcome: this.#outcome(),
      },
    );
  }

  #outcome(): 'unknown' | 'not_started' {
    return this.#context.started() ? 'unknown' : 'not_started';
  }

  async #again(): Promise<Settled> {
    return this.answer(await this.#context.classifier.classify());
  }

  /** A declared dialog is accepted; any other is dismissed and stops the replay. */
  async #dialog(state: Extract<PageState, { kind: 'dialog' }>): Promise<Settled> {
    const message = state.dialog.message();
    if (this.#context.capability.dialogs.some((declared) => message.includes(declared))) {
      await state.dialog.accept();
      return this.#again();
    }
    await state.dialog.dismiss().catch(() => undefined);
    throw new LiftError('UNEXPECTED_STATE', `An undeclared dialog opened: ${state.detail}`, {
      hint: 'The capability does not declare this dialog, so the replay stopped (it was dismissed). Rediscover the capability if the dialog is now part of the screen.',
      outcome: this.#outcome(),
    });
  }

  /** A transient server error gets one reload of its frame. */
  async #transient(state: Extract<PageState, { kind: 'transient' }>): Promise<Settled> {
    if (this.reloads >= 1) {
      throw new LiftError(
        'UPSTREAM_ERROR',
        `The application still answers with a server error after one reload (${state.detail}).`,
        { outcome: this.#outcome() },
      );
    }
    this.reloads++;
    this.#context.emit('replay-page-reloaded', { detail: state.detail });
    this.#context.harness.tracker.forget(state.frame);
    await state.frame.goto(state.frame.url(), { waitUntil: 'load', timeout: this.#context.timeoutMs });
    return this.#again();
  }

  /**
   * An expired session: the replay's own sign-in once, else a person once (attended runs).
   * Either starts over, which repeats every step: only a read, or a replay that has sent
   * nothing yet, may do that; a write that may have landed stops with AUTH_REQUIRED.
   */
  async #authExpired(state: Extract<PageState, { kind: 'auth_expired' }>): Promise<Settled> {
    const { harness, options, emit } = this.#context;
    const canRestart = options.effectClass === 'read' || !this.#context.started();
    if (harness.canSignIn && !this.#signedIn && canRestart) {
      this.#signedIn = true;
      emit('replay-sign-in-start', {});
      await harness.signIn();
      return 'restart';
    }
    if (!options.handoff || this.handoffs >= 1 || !canRestart) {
      throw new LiftError('AUTH_REQUIRED', `The session expired: ${state.detail}.`, {
        hint: 'A person must sign in again: call it attended (lift call NAME --wait) and take the page over in the console (lift console, Handoffs). The replay did not guess credentials.',
        outcome: this.#outcome(),
      });
    }
    this.handoffs++;
    emit('replay-handoff-start', { reason: state.detail });
    await options.handoff({
      reason: `Sign in again: ${state.detail}`,
      deadlineMs: harness.timings.handoffTimeoutMs,
    });
    // A person presses Done as soon as the page moves on; a sign-in post still on its way
    // carries the session cookie, and starting over now would cancel it.
    await harness.tracker.documentsSettled(harness.timings.navigationTimeoutMs);
    emit('replay-handoff-end', {});
    return 'restart';
  }
}
