import { mkdirSync } from 'node:fs';
import type { Dialog, Page } from 'playwright-core';
import type { ToolEvent } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { PRIVATE_DIR_MODE } from '../../contract/paths.js';
import { type UiTimings, timings as withDefaults } from './defaults.js';
import { markOf } from './marks.js';
import {
  blockedObservation,
  type Observation,
  type ObservationIndex,
  observePage,
  type PageState,
} from './observe.js';
import {
  type BlockedRequest,
  type PageTracker,
  redactedOriginAndPath,
  redactedRequest,
} from './page-tracker.js';
import { checkUrl, type UiPolicy } from './policy.js';
import { QuietWatch } from './quiet.js';
import { Redactor } from './redact.js';
import type { ElementRecord } from './render.js';
import { RequestGuard } from './request-guard.js';
import { maskedScreenshot } from './screenshot.js';
import {
  onSignInPage,
  passwordFrame,
  SignInFailed,
  type SignInField,
  type SignInRecipe,
  type SignInValue,
  showsSignIn,
  signInWith,
} from './sign-in.js';
import { SIGN_IN_RECIPE_DOCS } from './sign-in-recipe-help.js';
import { SignInValues } from './sign-in-values.js';
import type { ActEnvironment } from './step.js';
import { tokenCounter } from './tokens.js';

export interface PageHarnessOptions {
  policy: UiPolicy;
  /** Values bound from the task's inputs; shown as ⟦input:NAME⟧ and referred to as {"input": NAME}. */
  inputs?: Record<string, string>;
  /** Column headers never shown (⟦hidden:column⟧), e.g. ["Balance"]. */
  hiddenColumns?: string[];
  /** Further values never shown (tokens, canaries); every secret the sign-in reads is added too. */
  secrets?: string[];
  /** Whether a text holds any stored secret (the secret store's foundIn): screenshots black it out. */
  isSecret?: (text: string) => boolean;
  /** How the harness signs the page in; passwordFormSignIn(user, {secret}) for --user/--secret. */
  signIn?: SignInRecipe;
  /** Reads a named secret from the secret store (ToolContext.secret fits). */
  secret?: (name: string) => string;
  /** Keeps the browser profile (its cookies) after a sign-in, for later contexts and processes. */
  saveProfile?: () => Promise<void>;
  /** A person is watching: high-risk actions are allowed (still never blocked ones). */
  attended?: boolean;
  /** Folder for full snapshots and screenshots. */
  outputDir?: string;
  /** Overrides of UI_DEFAULTS for this page. */
  timings?: Partial<UiTimings>;
  /** Receives the page's events (redacted); ToolContext.emit fits. */
  emit?: (event: ToolEvent) => void;
}

/**
 * The one page harness: a page under the request guard, with its tracker (dialogs, file
 * chooser, document statuses, blocked requests), its redactor, one set of timings and one
 * sign-in. The UI tools (UiSession), discovery (PageDriver), replay and a person's handoff
 * all drive a page through one of these. The guard and tracker belong to the page and
 * outlive a harness; a harness belongs to one use of the page (a session, one replay).
 */
export class PageHarness {
  readonly page: Page;
  readonly tracker: PageTracker;
  /** Tells when the work a step set off (requests, re-rendering) is done. */
  readonly quiet: QuietWatch;
  readonly redactor: Redactor;
  readonly timings: UiTimings;
  readonly attended: boolean;
  readonly outputDir: string | undefined;
  readonly #options: PageHarnessOptions;
  readonly #guard: RequestGuard;
  readonly #unlisten: () => void;
  readonly #signIn: SignInValues;
  readonly #openedAt = Date.now();
  #detached = false;

  /** Guards the page (before it loads anything of this use) and starts hearing its events. */
  static async open(page: Page, options: PageHarnessOptions): Promise<PageHarness> {
    if (options.outputDir) mkdirSync(options.outputDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const guard = await RequestGuard.install(page, options.policy);
    return new PageHarness(page, guard, options);
  }

  private constructor(page: Page, guard: RequestGuard, options: PageHarnessOptions) {
    this.page = page;
    this.#guard = guard;
    this.#options = options;
    this.tracker = guard.tracker;
    this.quiet = new QuietWatch(page, () => this.tracker.dialog !== undefined);
    this.timings = withDefaults(options.timings);
    this.attended = Boolean(options.attended);
    this.outputDir = options.outputDir;
    this.redactor = new Redactor({
      ...(options.inputs ? { inputs: options.inputs } : {}),
      ...(options.hiddenColumns ? { hiddenColumns: options.hiddenColumns } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
    });
    this.#signIn = new SignInValues({
      recipe: options.signIn,
      secret: options.secret,
      redactor: this.redactor,
      inputs: options.inputs,
    });
    this.#unlisten = this.tracker.listen({
      blocked: (blocked) => {
        // Origin and path only: a query string carries bound input values.
        const { url: _url, at: _at, ...event } = redactedRequest(blocked, this.redactor);
        this.emit({ type: 'ui-request-blocked', ...event });
      },
      dialog: (dialog) =>
        this.emit({
          type: 'ui-dialog-opened',
          dialog: dialog.type(),
          message: this.redactor.text(dialog.message()),
        }),
      popupClosed: (url) =>
        this.emit({ type: 'ui-popup-closed', url: redactedOriginAndPath(url, this.redactor) }),
    });
  }

  get policy(): UiPolicy {
    return this.#guard.policy;
  }

  emit(event: ToolEvent): void {
    if (!this.#detached) this.#options.emit?.(event);
  }

  /** Loads a URL in the top page after the policy check (code's navigation, not a model's). */
  async goto(url: string): Promise<void> {
    const verdict = checkUrl(this.policy, url, true);
    if (!verdict.allowed) {
      throw new LiftError('POLICY_BLOCKED', `Navigation refused: ${this.redactor.text(verdict.reason)}.`, {
        outcome: 'not_started',
      });
    }
    // A dialog the page opens while it loads holds back its load event, and nobody can answer
    // it before this returns (a start page's alert() made session start wait out the timeout).
    const stopAnswering = this.tracker.listen({ dialog: (dialog) => void this.#answerDuringLoad(dialog) });
    try {
      await this.page.goto(url, { waitUntil: 'load', timeout: this.timings.navigationTimeoutMs });
    } finally {
      stopAnswering();
    }
  }

  /**
   * Answers a dialog opened during a load as the policy answers without a person or model:
   * dismissed (accepting confirms what the page asked, safety.ts), a beforeunload accepted
   * (leaving is what this navigation is for). Recorded like a dialog answered later.
   */
  async #answerDuringLoad(dialog: Dialog): Promise<void> {
    if (this.tracker.dialog === dialog) this.tracker.takeDialog();
    const response = dialog.type() === 'beforeunload' ? 'accept' : 'dismiss';
    this.emit({
      type: 'ui-dialog-answered',
      dialog: dialog.type(),
      message: this.redactor.text(dialog.message()),
      response,
      during: 'load',
    });
    await (response === 'accept' ? dialog.accept() : dialog.dismiss()).catch(() => undefined);
  }

  /** The page state without taking a snapshot. */
  async state(): Promise<PageState> {
    if (this.tracker.dialog) return 'dialog';
    if (this.tracker.fileChooser) return 'file_chooser';
    if (await showsSignIn(this.page, this.#signIn.recipe)) return 'auth_required';
    const failed = this.page.frames().some((frame) => (this.tracker.status(frame) ?? 0) >= 500);
    return failed ? 'error' : 'ready';
  }

  /** Whether this harness can sign the page in itself (a recipe and a way to read secrets). */
  get canSignIn(): boolean {
    return this.#signIn.usable;
  }

  /**
   * Signs in by the recipe, typed by the harness itself (the one case where a password field
   * is filled), every secret masked before it is typed; saves the profile after. A page with
   * no sign-in form is left as is.
   */
  async signIn(): Promise<void> {
    const { recipe } = this.#signIn;
    if (!recipe || !this.canSignIn) {
      throw new LiftError('AUTH_REQUIRED', 'This session has no sign-in configured.', {
        hint: 'Open the session with a sign-in (--user and --secret, or --sign-in FILE), or let a person sign in to the profile.',
      });
    }
    const context = {
      page: this.page,
      tracker: this.tracker,
      timings: this.timings,
      valueOf: (value: SignInValue, field: SignInField) => this.#signIn.typed(value, field),
    };
    // Where, without its query: a person watching reads which application, never a token in the URL.
    this.emit({ type: 'ui-sign-in-start', url: redactedOriginAndPath(this.page.url(), this.redactor) });
    let failure: SignInFailed | undefined;
    try {
      await signInWith(recipe, context);
    } catch (error) {
      if (!(error instanceof SignInFailed)) throw error;
      failure = error;
    }
    this.emit({ type: 'ui-sign-in-end', ok: failure === undefined });
    if (failure) throw this.#signIn.failed(failure.reason, { misfit: failure.misfit });
    await this.#options.saveProfile?.();
  }

  /**
   * Signs in before the start page where the form is reached: the recipe's `open` page, or
   * where discovery met the application's sign-in form (a capability's `signInAt`), for an
   * application that shows its pages to anyone and never asks. True when it went there.
   * A page that shows no form to a browser that was never signed in to the application is
   * not where the form is: AUTH_REQUIRED, before anything else happens.
   */
  async signInAtOpen(origin: string, learned?: string): Promise<boolean> {
    const open = this.#signIn.recipe?.open ?? learned;
    if (!open || (!this.canSignIn && !learned)) return false;
    const fresh = await this.neverSignedIn(origin);
    await this.goto(new URL(open, origin).href);
    if ((await this.state()) === 'auth_required') {
      if (!this.canSignIn) {
        throw new LiftError(
          'AUTH_REQUIRED',
          `The capability signs in at ${this.redactor.text(open)} before its start page, and this call has no sign-in.`,
          {
            hint: 'Register it with its sign-in (lift capabilities add FILE --effect CLASS --sign-in RECIPE, or --user USER --secret NAME), or sign the profile in.',
            outcome: 'not_started',
          },
        );
      }
      await this.signIn();
    } else if (fresh && this.canSignIn) {
      throw new LiftError(
        'AUTH_REQUIRED',
        `No sign-in form at ${this.redactor.text(open)}: a browser that was never signed in found no password box there to sign in with.`,
        {
          hint: `The recipe's "open" must be the page that shows the sign-in form (a "Log in" link's target). ${SIGN_IN_RECIPE_DOCS} has an example.`,
          outcome: 'not_started',
        },
      );
    }
    return true;
  }

  /** Whether the browser holds no cookie of the application: it cannot be signed in to it yet. */
  async neverSignedIn(origin: string): Promise<boolean> {
    const cookies = await this.page
      .context()
      .cookies(origin)
      .catch(() => undefined);
    return cookies !== undefined && cookies.length === 0;
  }

  /**
   * At the start of a session, a sign-in form the recipe does not take for its own (it lives
   * at another path than the recipe's `page`) in a browser never signed in: the recipe would
   * never sign in, and the session must not start signed out without saying so.
   */
  async assertNoStraySignIn(): Promise<void> {
    const { recipe } = this.#signIn;
    if (!recipe || !this.canSignIn || onSignInPage(this.page, recipe)) return;
    if (!(await passwordFrame(this.page))) return;
    const here = new URL(this.page.url());
    throw new LiftError(
      'AUTH_REQUIRED',
      `The start page ${this.redactor.text(`${here.pathname}${here.search}`)} shows a sign-in form, but the recipe's page is ${recipe.page}: it never signs in here.`,
      {
        hint: `Set the recipe's "page" to the path the form lives at. ${SIGN_IN_RECIPE_DOCS} has an example.`,
        outcome: 'not_started',
      },
    );
  }

  /** What act-and-verify needs, for one action; `deadline` caps the action's own deadline. */
  actEnvironment(
    index: ObservationIndex['elements'],
    reads: Record<string, string>,
    deadline = Infinity,
  ): ActEnvironment {
    const { tracker } = this;
    return {
      page: this.page,
      policy: this.policy,
      redactor: this.redactor,
      attended: this.attended,
      refs: index,
      dialog: () => tracker.dialog,
      fileChooser: () => tracker.fileChooser,
      clearBlocking: () => tracker.clearBlocking(),
      activity: tracker,
      blockedSince: (time) => tracker.blockedSince(time),
      state: () => this.state(),
      serverErrorSince: (time) => tracker.serverErrorSince(time),
      deadline: Math.min(Date.now() + this.timings.actionTimeoutMs, deadline),
      quietMs: this.timings.quietMs,
      reads,
    };
  }

  /**
   * A bounded, redacted observation (see observe.ts); while a dialog or file chooser blocks
   * the page, the observation says so instead of reading a page that cannot answer.
   */
  async observe(
    sequence: number,
    find?: { match: string; table?: string },
    page = 1,
  ): Promise<{
    observation: Observation;
    index: ObservationIndex;
  }> {
    const empty: ObservationIndex = { elements: new Map(), frames: new Map() };
    if (this.tracker.dialog || this.tracker.fileChooser)
      return { observation: await this.#blocked(), index: empty };
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return await observePage(this.page, {
          redactor: this.redactor,
          maxTokens: this.timings.maxTokens,
          outputDir: this.outputDir ?? '.',
          statusOf: (frame) => this.tracker.status(frame),
          mark: (element) => this.mark(element),
          signInShowing: () => showsSignIn(this.page, this.#signIn.recipe),
          sequence,
          page,
          ...(find ? { find } : {}),
        });
      } catch (error) {
        lastError = error;
        if (this.tracker.dialog) return { observation: await this.#blocked(), index: empty };
        // The document was being replaced; wait (bounded) for the new one.
        await this.page.waitForLoadState('domcontentloaded', { timeout: 3_000 }).catch(() => undefined);
      }
    }
    throw new LiftError('TIMEOUT', 'The page could not be observed: it kept changing.', {
      cause: lastError,
      outcome: 'not_started',
    });
  }

  /** Why an element's line is marked: the policy or the safety classifier would refuse it. */
  mark(element: ElementRecord): string | undefined {
    return markOf(this.policy, this.attended, element);
  }

  /** The task's bound input values (discovery tells a GET that stored one from a lookup by them). */
  boundValues(): string[] {
    return Object.values(this.#options.inputs ?? {});
  }

  /**
   * A screenshot with bound values, secrets, password fields and hidden columns blacked out
   * (and `regions`, selectors blacked out whole); its path goes into the run's events, which
   * is where the console finds it.
   */
  async screenshot(
    path: string,
    extra: { regions?: string[] } = {},
  ): Promise<{ path: string; masks: number }> {
    if (this.tracker.dialog) {
      throw new LiftError(
        'PROMPT_UNEXPECTED',
        'A dialog is open; the page cannot be drawn until it is handled.',
        {
          hint: 'Handle the dialog first.',
        },
      );
    }
    const shot = await maskedScreenshot(this.page, path, {
      values: [...(this.#options.secrets ?? []), ...this.#signIn.secretValues()],
      inputs: Object.values(this.#options.inputs ?? {}),
      hiddenColumns: this.#options.hiddenColumns ?? [],
      isSecret: this.#options.isSecret,
      regions: extra.regions,
    });
    this.emit({ type: 'ui-screenshot-taken', path, masks: shot.masks });
    return shot;
  }

  /** Requests the guard stopped since the harness opened, redacted, oldest first. */
  blockedRequests(since = this.#openedAt): BlockedRequest[] {
    return this.tracker.blockedSince(since).map((blocked) => redactedRequest(blocked, this.redactor));
  }

  /** Stops emitting; the page keeps its guard and tracker for its next use. */
  detach(): void {
    this.#detached = true;
    this.#unlisten();
    this.quiet.detach();
  }

  /**
   * Between two actions of one batch: waits until the work the first set off has been done
   * (the requests it started answered, the page still), as replay does after each step. A
   * search box loads its script on focus and only then stops a plain Enter from submitting
   * the full-text search (MediaWiki): pressing Enter before that lands on another page.
   */
  async settleAfterStep(startedAt: number): Promise<void> {
    if (this.tracker.dialog || this.tracker.fileChooser) return;
    await this.quiet.settle(undefined, this.timings.replayStepTimeoutMs, { since: startedAt });
  }

  async #blocked(): Promise<Observation> {
    return blockedObservation(this.tracker.dialog, this.redactor, this.page.url(), await tokenCounter());
  }
}
