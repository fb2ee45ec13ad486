import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { z } from 'zod';
import type { ToolEvent } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { performAction, type StepResult } from './act.js';
import { runBatch, stepEvent } from './act-batch.js';
import { type UiActionInput, UiActionsSchema } from './actions.js';
import type { Lease } from './browser.js';
import { SessionBudget } from './budget.js';
import { PageHarness } from './harness.js';
import type { Observation, ObservationIndex, PageState } from './observe.js';
import type { BlockedRequest } from './page-tracker.js';
import type { UiPolicy } from './policy.js';
import type { Redactor } from './redact.js';
import { type ActResult, type ObserveOptions, parseFind, type UiSessionOptions } from './session-options.js';
import { passwordFormSignIn } from './sign-in.js';

export type { BlockedRequest } from './page-tracker.js';
export type { ActResult, ObserveOptions, SignInSpec, UiSessionOptions } from './session-options.js';

/** A step completed when it was executed and did what it was for; anything else ends the batch. */
function completed(step: StepResult): boolean {
  return (
    step.status === 'executed' &&
    (step.effect === 'changed' || step.effect === 'none' || (step.effect === 'no_change' && !step.code))
  );
}

/**
 * One task's browser session on the structured-UI rung, for the UI tools: a leased context,
 * its page under the one page harness, and the policy's budgets. See index.ts for the contract.
 */
export class UiSession {
  readonly page: Page;
  readonly #lease: Lease;
  readonly #harness: PageHarness;
  readonly #budget: SessionBudget;
  #index: ObservationIndex = { elements: new Map(), frames: new Map() };
  #sequence = 0;
  #closed = false;

  private constructor(lease: Lease, harness: PageHarness, policy: UiPolicy) {
    this.#lease = lease;
    this.#harness = harness;
    this.page = harness.page;
    this.#budget = new SessionBudget(policy.budgets);
  }

  /** Leases a warm context, guards its page, and loads the start URL. */
  static async open(options: UiSessionOptions): Promise<UiSession> {
    const lease = await options.pool.acquire(options.profile);
    try {
      const page = await lease.context.newPage();
      const harness = await PageHarness.open(page, {
        policy: options.policy,
        outputDir: options.outputDir,
        attended: Boolean(options.attended),
        saveProfile: () => lease.save(),
        timings: {
          ...(options.actionTimeoutMs !== undefined ? { actionTimeoutMs: options.actionTimeoutMs } : {}),
          ...(options.quietMs !== undefined ? { quietMs: options.quietMs } : {}),
          ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
        },
        ...(options.inputs ? { inputs: options.inputs } : {}),
        ...(options.hiddenColumns ? { hiddenColumns: options.hiddenColumns } : {}),
        ...(options.secrets ? { secrets: options.secrets } : {}),
        ...(options.isSecret ? { isSecret: options.isSecret } : {}),
        ...(options.secret ? { secret: options.secret } : {}),
        ...(options.emit ? { emit: options.emit } : {}),
        ...(options.signIn
          ? { signIn: passwordFormSignIn(options.signIn.user, { secret: options.signIn.passwordSecret }) }
          : {}),
      });
      const session = new UiSession(lease, harness, options.policy);
      harness.emit({ type: 'ui-session-start', profile: lease.profile, attended: harness.attended });
      if (options.startUrl) await harness.goto(options.startUrl);
      return session;
    } catch (error) {
      await lease.release();
      throw error;
    }
  }

  /** Requests the policy stopped, oldest first: origin and path, never a query string. */
  blockedRequests(): BlockedRequest[] {
    return this.#harness.blockedRequests();
  }

  get redactor(): Redactor {
    return this.#harness.redactor;
  }

  get policy(): UiPolicy {
    return this.#harness.policy;
  }

  /** Actions attempted and rejected so far, and the time used, against the policy's budgets. */
  budget(): { steps: number; rejected: number; seconds: number } {
    return this.#budget.used();
  }

  /** Loads a URL in the top page after the policy check (code's navigation, not the model's). */
  goto(url: string): Promise<void> {
    return this.#harness.goto(url);
  }

  /** The page state without taking a snapshot. */
  state(): Promise<PageState> {
    return this.#harness.state();
  }

  /** Throws AUTH_REQUIRED when the page shows a sign-in form (an expired session). */
  async assertSignedIn(): Promise<void> {
    if ((await this.state()) === 'auth_required') {
      throw new LiftError('AUTH_REQUIRED', 'The application shows its sign-in page: the session expired.', {
        hint: 'A person signs in again in this browser profile (handoff), or the session signs in from the secret store.',
      });
    }
  }

  async observe(options: ObserveOptions = {}): Promise<Observation> {
    this.#assertOpen();
    const find = options.find === undefined ? undefined : parseFind(options.find, this.redactor);
    const sequence = ++this.#sequence;
    const { observation, index } = await this.#harness.observe(sequence, find, options.page);
    if (observation.state !== 'dialog' && observation.state !== 'file_chooser') this.#index = index;
    this.#emit({
      type: 'ui-page-observed',
      sequence,
      state: observation.state,
      tokens: observation.tokens,
      fullTokens: observation.fullTokens,
      truncated: observation.truncated,
      url: observation.url,
    });
    return observation;
  }

  /**
   * Runs up to 6 typed actions in order, each checked and verified. The first action that is
   * rejected or does not change the page stops the call; the rest are `skipped`.
   */
  async act(input: UiActionInput[] | unknown): Promise<ActResult> {
    this.#assertOpen();
    const parsed = UiActionsSchema.safeParse(input);
    if (!parsed.success) {
      throw new LiftError('BAD_INPUT', `The actions are not valid:\n${z.prettifyError(parsed.error)}`, {
        hint: 'Send 1 to 6 actions such as {"op": "click", "target": {"ref": "f2e5"}} or {"op": "fill", "target": {"ref": "f2e7"}, "value": {"input": "memberId"}}.',
        outcome: 'not_started',
      });
    }
    const reads: Record<string, string> = {};
    const steps = await runBatch(
      parsed.data,
      async (action, index) => {
        this.#takeBudget();
        const env = this.#harness.actEnvironment(this.#index.elements, reads, this.#budget.endsAt);
        const step = await performAction(env, action, index);
        if (step.status === 'rejected') this.#budget.reject();
        this.#emit(stepEvent(step));
        return step;
      },
      (step) =>
        !completed(step) ||
        this.#harness.tracker.dialog !== undefined ||
        this.#harness.tracker.fileChooser !== undefined,
      (since) => this.#harness.settleAfterStep(since),
    );
    return {
      steps,
      state: await this.state(),
      executed: steps.filter((step) => step.status === 'executed').length,
      rejected: steps.filter((step) => step.status === 'rejected').length,
      reads,
    };
  }

  /** Signs in from the secret store (see PageHarness.signIn); the password never shows anywhere. */
  signIn(): Promise<void> {
    this.#assertOpen();
    return this.#harness.signIn();
  }

  /** A screenshot with bound values, secrets, password fields and hidden columns blacked out. */
  async screenshot(): Promise<{ path: string; masks: number }> {
    this.#assertOpen();
    return this.#harness.screenshot(
      join(this.#harness.outputDir ?? '.', `screenshot-${++this.#sequence}.png`),
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#emit({ type: 'ui-session-end', ...this.budget() });
    this.#harness.detach();
    await this.#lease.release();
  }

  #takeBudget(): void {
    const exhausted = this.#budget.exhausted();
    if (exhausted) this.#emit({ type: 'ui-budget-exhausted', budget: exhausted });
    this.#budget.take();
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('The UI session is closed.');
  }

  #emit(event: ToolEvent): void {
    this.#harness.emit(event);
  }
}
