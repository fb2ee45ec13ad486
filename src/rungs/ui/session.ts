import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog, FileChooser, Frame, Page } from 'playwright-core';
import { z } from 'zod';
import type { ToolEvent } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { type ActEnvironment, performAction, type StepResult } from './act.js';
import { type UiActionInput, UiActionsSchema } from './actions.js';
import type { BrowserPool, Lease } from './browser.js';
import { type BlockedRequest, guardRequests } from './guard.js';
import {
  blockedObservation,
  type Observation,
  type ObservationIndex,
  observePage,
  type PageState,
} from './observe.js';

export type { BlockedRequest } from './guard.js';

import { PRIVATE_DIR_MODE } from '../../contract/paths.js';
import { blockedName, checkUrl, clickAllowed, type UiPolicy } from './policy.js';
import { Redactor } from './redact.js';
import type { ElementRecord } from './render.js';
import { classifyAction } from './safety.js';
import { maskedScreenshot } from './screenshot.js';
import { ActivityTracker, pageFingerprint, waitForSettle } from './settle.js';

export interface SignInSpec {
  /** The user name typed into the sign-in form's user field. */
  user: string;
  /** The name of the secret holding the password (read through `secret`). */
  passwordSecret: string;
}

export interface UiSessionOptions {
  pool: BrowserPool;
  /** The browser profile (cookies, storage) this session signs in with and keeps. */
  profile?: string;
  policy: UiPolicy;
  /** Loaded (after the policy check) when the session opens. */
  startUrl?: string;
  /** Values bound from the task's inputs; shown as ⟦input:NAME⟧ and referred to as {"input": NAME}. */
  inputs?: Record<string, string>;
  /** Column headers never shown (⟦hidden:column⟧), e.g. ["Balance"]. */
  hiddenColumns?: string[];
  /** Further values never shown (tokens, canaries); every secret read is added too. */
  secrets?: string[];
  /** Reads a named secret from the secret store (ToolContext.secret fits). */
  secret?: (name: string) => string;
  signIn?: SignInSpec;
  /** A person is watching: high-risk actions are allowed (still never blocked ones). */
  attended?: boolean;
  /** Folder for full snapshots and screenshots. */
  outputDir: string;
  /** Observation cap, in tokens counted as characters / 4. */
  maxTokens?: number;
  /** Deadline of each action, verification included. */
  actionTimeoutMs?: number;
  /** How long "nothing happened" must hold before an action is judged no_change. */
  quietMs?: number;
  /** Receives the session's events (redacted); ToolContext.emit fits. */
  emit?: (event: ToolEvent) => void;
}

export interface ActResult {
  steps: StepResult[];
  /** The page state after the last step. */
  state: PageState;
  executed: number;
  rejected: number;
  /** Values read by `read` actions, raw: for the caller's code, never for a model. */
  reads: Record<string, string>;
}

export interface ObserveOptions {
  /** Show the rows of long tables that contain this value (optionally of one table). */
  find?: { match: string | { input: string }; table?: string };
}

const FindSchema = z.strictObject({
  match: z.union([z.string().min(1).max(200), z.strictObject({ input: z.string().min(1).max(64) })]),
  table: z.string().min(1).max(200).optional(),
});

/**
 * One task's browser session on the structured-UI rung. See index.ts for the contract.
 */
export class UiSession {
  readonly page: Page;
  readonly #lease: Lease;
  readonly #options: UiSessionOptions;
  readonly #policy: UiPolicy;
  readonly #redactor: Redactor;
  readonly #activity: ActivityTracker;
  readonly #blocked: BlockedRequest[] = [];
  readonly #status = new WeakMap<Frame, number>();
  readonly #serverErrors: Array<{ at: number; status: number }> = [];
  readonly #openedAt = Date.now();
  #index: ObservationIndex = { elements: new Map(), frames: new Map() };
  #dialog: Dialog | undefined;
  #fileChooser: FileChooser | undefined;
  #sequence = 0;
  #steps = 0;
  #rejected = 0;
  #closed = false;

  private constructor(lease: Lease, page: Page, options: UiSessionOptions) {
    this.#lease = lease;
    this.page = page;
    this.#options = options;
    this.#policy = options.policy;
    this.#redactor = new Redactor({
      ...(options.inputs ? { inputs: options.inputs } : {}),
      ...(options.hiddenColumns ? { hiddenColumns: options.hiddenColumns } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
    });
    this.#activity = new ActivityTracker(page);
    page.on('dialog', (dialog) => {
      this.#dialog = dialog;
      this.#emit({
        type: 'ui-dialog-open',
        dialog: dialog.type(),
        message: this.#redactor.text(dialog.message()),
      });
    });
    page.on('filechooser', (chooser) => {
      this.#fileChooser = chooser;
      this.#emit({ type: 'ui-file-chooser-open' });
    });
    page.on('response', (response) => {
      const request = response.request();
      if (!request.isNavigationRequest()) return;
      const frame = request.frame();
      this.#status.set(frame, response.status());
      if (response.status() >= 500) this.#serverErrors.push({ at: Date.now(), status: response.status() });
    });
  }

  /** Leases a warm context, installs the policy on every request, and loads the start URL. */
  static async open(options: UiSessionOptions): Promise<UiSession> {
    mkdirSync(options.outputDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const lease = await options.pool.acquire(options.profile);
    try {
      const page = await lease.context.newPage();
      const session = new UiSession(lease, page, options);
      await session.#installPolicy();
      session.#emit({
        type: 'ui-session-start',
        profile: lease.profile,
        attended: Boolean(options.attended),
      });
      if (options.startUrl) await session.goto(options.startUrl);
      return session;
    } catch (error) {
      await lease.release();
      throw error;
    }
  }

  /**
   * Checks every request of the context (pages, frames, redirects, subresources) before it
   * leaves the browser; one that the policy does not allow is aborted and recorded.
   */
  async #installPolicy(): Promise<void> {
    const { context } = this.#lease;
    await guardRequests(context, this.#policy, {
      timeoutMs: this.#options.actionTimeoutMs ?? 15_000,
      onBlocked: (blocked) => {
        this.#blocked.push(blocked);
        this.#emit({
          type: 'ui-request-blocked',
          url: this.#redactor.text(blocked.url),
          reason: blocked.reason,
          navigation: blocked.navigation,
        });
      },
    });
    // Windows the page opens are closed: the session works in one page, under one policy.
    context.on('page', (popup) => {
      if (popup === this.page) return;
      this.#emit({ type: 'ui-popup-closed', url: this.#redactor.text(popup.url()) });
      popup.close().catch(() => undefined);
    });
  }

  /** Requests the policy stopped, oldest first. */
  blockedRequests(): BlockedRequest[] {
    return this.#blocked.map((entry) => ({ ...entry, url: this.#redactor.text(entry.url) }));
  }

  get redactor(): Redactor {
    return this.#redactor;
  }

  get policy(): UiPolicy {
    return this.#policy;
  }

  /** Actions attempted and rejected so far, and the time used, against the policy's budgets. */
  budget(): { steps: number; rejected: number; seconds: number } {
    return { steps: this.#steps, rejected: this.#rejected, seconds: (Date.now() - this.#openedAt) / 1000 };
  }

  /** Loads a URL in the top page after the policy check (code's navigation, not the model's). */
  async goto(url: string): Promise<void> {
    const verdict = checkUrl(this.#policy, url, true);
    if (!verdict.allowed) {
      throw new LiftError('POLICY_BLOCKED', `Navigation refused: ${verdict.reason}.`, {
        outcome: 'not_started',
      });
    }
    await this.page.goto(url, { timeout: this.#options.actionTimeoutMs ?? 15_000 });
  }

  /** The page state without taking a snapshot. */
  async state(): Promise<PageState> {
    if (this.#dialog) return 'dialog';
    if (this.#fileChooser) return 'file_chooser';
    for (const frame of this.page.frames()) {
      const count = await frame
        .locator('input[type=password]')
        .count()
        .catch(() => 0);
      if (count > 0) return 'auth_required';
    }
    const failed = this.page.frames().some((frame) => (this.#status.get(frame) ?? 0) >= 500);
    return failed ? 'error' : 'ready';
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
    const find = options.find === undefined ? undefined : this.#parseFind(options.find);
    const sequence = ++this.#sequence;
    if (this.#dialog || this.#fileChooser) {
      const observation = this.#blockedObservation();
      this.#emit({ type: 'ui-observation', sequence, state: observation.state, tokens: observation.tokens });
      return observation;
    }
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const { observation, index } = await observePage(this.page, {
          redactor: this.#redactor,
          maxTokens: this.#options.maxTokens ?? 2_000,
          outputDir: this.#options.outputDir,
          statusOf: (frame) => this.#status.get(frame),
          mark: (element) => this.#mark(element),
          sequence,
          ...(find ? { find } : {}),
        });
        this.#index = index;
        this.#emit({
          type: 'ui-observation',
          sequence,
          state: observation.state,
          tokens: observation.tokens,
          fullTokens: observation.fullTokens,
          truncated: observation.truncated,
          url: this.#redactor.text(observation.url),
        });
        return observation;
      } catch (error) {
        lastError = error;
        if (this.#dialog) return this.#blockedObservation();
        // The document was being replaced; wait (bounded) for the new one.
        await this.page.waitForLoadState('domcontentloaded', { timeout: 3_000 }).catch(() => undefined);
      }
    }
    throw new LiftError('TIMEOUT', 'The page could not be observed: it kept changing.', {
      cause: lastError,
      outcome: 'not_started',
    });
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
    const steps: StepResult[] = [];
    const reads: Record<string, string> = {};
    let stopped = false;
    for (const [index, action] of parsed.data.entries()) {
      if (stopped) {
        steps.push({
          index,
          op: action.op,
          status: 'skipped',
          message: 'Not run: an earlier action did not complete as expected.',
          durationMs: 0,
        });
        continue;
      }
      this.#checkBudget();
      this.#steps++;
      const env = this.#environment(reads);
      const step = await performAction(env, action, index);
      if (step.status === 'rejected') this.#rejected++;
      steps.push(step);
      this.#emit({
        type: step.status === 'rejected' ? 'ui-action-rejected' : 'ui-action-executed',
        index,
        op: step.op,
        status: step.status,
        ...(step.effect ? { effect: step.effect } : {}),
        ...(step.code ? { code: step.code } : {}),
        ...(step.risk ? { risk: step.risk } : {}),
        ...(step.blockedBy ? { blockedBy: step.blockedBy } : {}),
        ...(step.element ? { element: step.element } : {}),
        ...(step.uncertain ? { uncertain: true } : {}),
        message: step.message,
        durationMs: step.durationMs,
      });
      const completed =
        step.status === 'executed' &&
        (step.effect === 'changed' || step.effect === 'none' || (step.effect === 'no_change' && !step.code));
      if (!completed) stopped = true;
      if (this.#dialog || this.#fileChooser) stopped = true;
    }
    return {
      steps,
      state: await this.state(),
      executed: steps.filter((step) => step.status === 'executed').length,
      rejected: steps.filter((step) => step.status === 'rejected').length,
      reads,
    };
  }

  /**
   * Signs in with the user of `signIn` and the password from the secret store, typed by the
   * session itself (the one case where a password field may be filled). The password is
   * added to the redactor first, so it cannot appear in any observation or event.
   */
  async signIn(): Promise<void> {
    this.#assertOpen();
    const spec = this.#options.signIn;
    if (!spec || !this.#options.secret) {
      throw new LiftError('AUTH_REQUIRED', 'This session has no sign-in configured.', {
        hint: 'Open the session with signIn and secret, or let a person sign in to the profile.',
      });
    }
    const password = this.#options.secret(spec.passwordSecret);
    this.#redactor.addSecret(password);
    const frame = await this.#passwordFrame();
    if (!frame) return;
    const field = frame.locator('input[type=password]').first();
    const form = frame
      .locator('form')
      .filter({ has: frame.locator('input[type=password]') })
      .first();
    const user = form
      .locator(
        'input:not([type=password]):not([type=hidden]):not([type=submit]):not([type=button]):not([type=checkbox])',
      )
      .first();
    const before = await pageFingerprint(this.page);
    await user.fill(spec.user, { timeout: 5_000 });
    await field.fill(password, { timeout: 5_000 });
    const startedAt = Date.now();
    await field.press('Enter', { timeout: 5_000 });
    await waitForSettle(before, {
      deadline: Date.now() + (this.#options.actionTimeoutMs ?? 10_000),
      quietMs: this.#options.quietMs ?? 800,
      read: () => pageFingerprint(this.page),
      interrupted: () => this.#dialog !== undefined,
      activity: this.#activity,
      startedAt,
    });
    const ok = (await this.#passwordFrame()) === undefined;
    this.#emit({ type: 'ui-sign-in', ok });
    if (!ok) {
      throw new LiftError('AUTH_REQUIRED', 'Signing in failed: the sign-in form is still showing.', {
        hint: `Check the stored secret '${spec.passwordSecret}' (lift secrets set ${spec.passwordSecret}) or let a person sign in.`,
      });
    }
    await this.#lease.save();
  }

  /** A screenshot with bound values, secrets, password fields and hidden columns blacked out. */
  async screenshot(): Promise<{ path: string; masks: number }> {
    this.#assertOpen();
    if (this.#dialog) {
      throw new LiftError(
        'PROMPT_UNEXPECTED',
        'A dialog is open; the page cannot be drawn until it is handled.',
        {
          hint: 'Handle the dialog first.',
        },
      );
    }
    const path = join(this.#options.outputDir, `screenshot-${++this.#sequence}.png`);
    const shot = await maskedScreenshot(this.page, path, {
      values: [
        ...Object.values(this.#options.inputs ?? {}),
        ...(this.#options.secrets ?? []),
        ...this.#secretsRead(),
      ],
      hiddenColumns: this.#options.hiddenColumns ?? [],
    });
    this.#emit({ type: 'ui-screenshot', path, masks: shot.masks });
    return shot;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#emit({ type: 'ui-session-end', ...this.budget() });
    await this.#lease.release();
  }

  #secretsRead(): string[] {
    const spec = this.#options.signIn;
    if (!spec || !this.#options.secret) return [];
    try {
      return [this.#options.secret(spec.passwordSecret)];
    } catch {
      return [];
    }
  }

  async #passwordFrame(): Promise<Frame | undefined> {
    for (const frame of this.page.frames()) {
      const count = await frame
        .locator('input[type=password]')
        .count()
        .catch(() => 0);
      if (count > 0) return frame;
    }
    return undefined;
  }

  #parseFind(find: NonNullable<ObserveOptions['find']>): { match: string; table?: string } {
    const parsed = FindSchema.safeParse(find);
    if (!parsed.success)
      throw new LiftError('BAD_INPUT', `find is not valid:\n${z.prettifyError(parsed.error)}`);
    const { match, table } = parsed.data;
    const text = typeof match === 'string' ? match : this.#redactor.inputValue(match.input);
    if (text === undefined)
      throw new LiftError('BAD_INPUT', `No input named '${(match as { input: string }).input}'.`);
    return { match: text, ...(table ? { table } : {}) };
  }

  #mark(element: ElementRecord): string | undefined {
    if (element.password) return 'signed in by the session only';
    if (!['button', 'link', 'menuitem', 'tab'].includes(element.role)) return undefined;
    if (blockedName(this.#policy, element.name)) return 'blocked by policy';
    if (!clickAllowed(this.#policy, element.name)) return 'not an allowed click';
    const { risk } = classifyAction({ op: 'click', target: { ref: element.ref } }, element);
    if (risk === 'high' && !this.#options.attended) return 'high risk: refused unattended';
    return undefined;
  }

  #blockedObservation(): Observation {
    return blockedObservation(this.#dialog, this.#redactor, this.page.url());
  }

  #environment(reads: Record<string, string>): ActEnvironment {
    const budgetEnd = this.#openedAt + this.#policy.budgets.seconds * 1000;
    return {
      page: this.page,
      policy: this.#policy,
      redactor: this.#redactor,
      attended: Boolean(this.#options.attended),
      refs: this.#index.elements,
      dialog: () => this.#dialog,
      fileChooser: () => this.#fileChooser,
      clearBlocking: () => {
        this.#dialog = undefined;
        this.#fileChooser = undefined;
      },
      activity: this.#activity,
      blockedSince: (time) => this.#blocked.filter((entry) => entry.at >= time),
      state: () => this.state(),
      serverErrorSince: (time) => this.#serverErrors.find((entry) => entry.at >= time)?.status,
      deadline: Math.min(Date.now() + (this.#options.actionTimeoutMs ?? 10_000), budgetEnd),
      quietMs: this.#options.quietMs ?? 800,
      signIn: false,
      reads,
    };
  }

  #checkBudget(): void {
    const { steps, rejected, seconds } = this.#policy.budgets;
    const used = this.budget();
    const exhausted =
      used.steps >= steps
        ? `${steps} steps`
        : this.#rejected > rejected
          ? `${rejected} rejected actions`
          : used.seconds >= seconds
            ? `${seconds} seconds`
            : undefined;
    if (exhausted) {
      this.#emit({ type: 'ui-budget-exhausted', budget: exhausted });
      throw new LiftError('BUDGET_EXHAUSTED', `The session used its budget of ${exhausted}.`, {
        outcome: 'not_started',
      });
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('The UI session is closed.');
  }

  #emit(event: ToolEvent): void {
    this.#options.emit?.(event);
  }
}
