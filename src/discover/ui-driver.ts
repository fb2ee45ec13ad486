import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog, FileChooser, Frame, Page, Response } from 'playwright-core';
import { PRIVATE_DIR_MODE } from '../contract/paths.js';
import { showsSignIn, signInWithForm } from '../replay/sign-in.js';
import { type ActEnvironment, performAction, type StepResult } from '../rungs/ui/act.js';
import { type UiActionInput, UiActionSchema } from '../rungs/ui/actions.js';
import { type Observation, observePage } from '../rungs/ui/observe.js';
import { checkUrl, type UiPolicy } from '../rungs/ui/policy.js';
import { Redactor } from '../rungs/ui/redact.js';
import type { ElementRecord } from '../rungs/ui/render.js';
import { ActivityTracker } from '../rungs/ui/settle.js';
import { pageFingerprint } from './fingerprint.js';
import type { UiDriver } from './session.js';

export interface SignIn {
  user: string;
  password: string;
}

export interface PageDriverOptions {
  page: Page;
  policy: UiPolicy;
  /** Values bound to the task inputs, shown to the explorer as placeholders. */
  bound: Record<string, string>;
  /** Columns whose values the explorer never sees (balances). */
  hiddenColumns: string[];
  /** The session's own credential, from the secret store; typed by Lift, never by a model. */
  signIn?: SignIn;
  attended: boolean;
  outputDir: string;
  maxTokens?: number;
  actionTimeoutMs?: number;
  quietMs?: number;
}

/**
 * The structured-UI rung as discovery uses it: one page, the policy enforced on every
 * request before it leaves, observations through the redactor, actions through act-and-verify.
 */
export class PageDriver implements UiDriver {
  readonly #options: PageDriverOptions;
  readonly #page: Page;
  readonly #redactor: Redactor;
  readonly #activity: ActivityTracker;
  readonly #blocked: Array<{ url: string; reason: string; at: number }> = [];
  readonly #serverErrors: Array<{ status: number; at: number }> = [];
  readonly #status = new Map<Frame, number>();
  readonly #reads: Record<string, string> = {};
  readonly #acceptedDialogs: string[] = [];
  #dialog: Dialog | undefined;
  #chooser: FileChooser | undefined;
  #refs = new Map<string, ElementRecord>();
  #sequence = 0;
  #signingIn = false;

  private constructor(options: PageDriverOptions) {
    this.#options = options;
    this.#page = options.page;
    this.#redactor = new Redactor({
      inputs: options.bound,
      secrets: options.signIn ? [options.signIn.password] : [],
      hiddenColumns: options.hiddenColumns,
    });
    this.#activity = new ActivityTracker(options.page);
    this.#page.on('dialog', (dialog) => {
      this.#dialog = dialog;
    });
    this.#page.on('filechooser', (chooser) => {
      this.#chooser = chooser;
    });
    this.#page.on('response', (response: Response) => {
      if (response.request().resourceType() !== 'document') return;
      this.#status.set(response.frame(), response.status());
      if (response.status() >= 500) this.#serverErrors.push({ status: response.status(), at: Date.now() });
    });
    mkdirSync(options.outputDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  }

  /** Installs the policy on every request of the page's context, then returns the driver. */
  static async create(options: PageDriverOptions): Promise<PageDriver> {
    const driver = new PageDriver(options);
    await options.page.context().route('**/*', async (route) => {
      const request = route.request();
      const navigation = request.isNavigationRequest();
      const verdict = checkUrl(options.policy, request.url(), navigation);
      if (verdict.allowed) return route.continue();
      driver.#blocked.push({ url: request.url(), reason: verdict.reason, at: Date.now() });
      return route.abort('blockedbyclient');
    });
    return driver;
  }

  get page(): Page {
    return this.#page;
  }

  async open(url: string): Promise<void> {
    await this.#page.goto(url, { waitUntil: 'load', timeout: 15_000 });
    if (this.#options.signIn && (await this.#hasPassword())) await this.#signIn(this.#options.signIn);
    const here = new URL(this.#page.url());
    const wanted = new URL(url);
    if (`${here.pathname}${here.search}` !== `${wanted.pathname}${wanted.search}`) {
      await this.#page.goto(url, { waitUntil: 'load', timeout: 15_000 });
    }
  }

  async #hasPassword(): Promise<boolean> {
    return showsSignIn(this.#page);
  }

  /** The session's own sign-in: user and password from the secret store, typed by Lift. */
  async #signIn(credential: SignIn): Promise<void> {
    this.#signingIn = true;
    try {
      await signInWithForm(this.#page, credential);
    } finally {
      this.#signingIn = false;
    }
  }

  async observe(options: {
    screenshot?: boolean;
    find?: { match: string; table?: string | undefined };
  }): Promise<{
    observation: Observation;
    screenshotPath?: string;
  }> {
    this.#sequence++;
    const find = options.find
      ? { match: options.find.match, ...(options.find.table ? { table: options.find.table } : {}) }
      : undefined;
    const { observation, index } = await observePage(this.#page, {
      redactor: this.#redactor,
      maxTokens: this.#options.maxTokens ?? 2_000,
      outputDir: this.#options.outputDir,
      statusOf: (frame) => this.#status.get(frame),
      sequence: this.#sequence,
      ...(find ? { find } : {}),
    });
    this.#refs = index.elements;
    if (this.#dialog)
      observation.dialog = {
        type: this.#dialog.type(),
        message: this.#redactor.text(this.#dialog.message()),
      };
    if (!options.screenshot) return { observation };
    const screenshotPath = join(this.#options.outputDir, `observation-${this.#sequence}.png`);
    await this.#page.screenshot({
      path: screenshotPath,
      mask: [
        this.#page.locator('input, textarea, td'),
        this.#page.frameLocator('iframe').locator('input, textarea, td'),
      ],
      maskColor: '#000000',
      timeout: 5_000,
    });
    return { observation, screenshotPath };
  }

  async act(actions: UiActionInput[]): Promise<StepResult[]> {
    const results: StepResult[] = [];
    for (const [index, raw] of actions.entries()) {
      const action = UiActionSchema.parse(this.#bindTargets(raw));
      const dialogBefore = this.#dialog;
      const result = await performAction(this.#environment(), action, index);
      if (
        action.op === 'dialog' &&
        result.status === 'executed' &&
        dialogBefore &&
        action.response === 'accept'
      ) {
        this.#acceptedDialogs.push(dialogBefore.message());
      }
      results.push(result);
      // After a rejection the rest of the batch was planned on a wrong assumption.
      if (result.status === 'rejected' || result.effect === 'unexpected') {
        for (let skipped = index + 1; skipped < actions.length; skipped++) {
          const op = (actions[skipped] as { op: StepResult['op'] }).op;
          results.push({
            index: skipped,
            op,
            status: 'skipped',
            message: 'Skipped: an earlier action in this call did not go as planned.',
            durationMs: 0,
          });
        }
        break;
      }
    }
    return results;
  }

  /**
   * Semantic targets may name a bound input as {{input.NAME}} (a row identified by the
   * member ID): the explorer refers to it by name, the page is searched with the value.
   */
  #bindTargets(action: UiActionInput): UiActionInput {
    const bind = (node: unknown): unknown => {
      if (typeof node === 'string') {
        return node.replace(
          /\{\{input\.([A-Za-z][A-Za-z0-9_]*)\}\}/g,
          (whole, name: string) => this.#options.bound[name] ?? whole,
        );
      }
      if (Array.isArray(node)) return node.map(bind);
      if (node && typeof node === 'object')
        return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, bind(v)]));
      return node;
    };
    const copy = { ...(action as Record<string, unknown>) };
    if ('target' in copy) copy.target = bind(copy.target);
    if (copy.verify && typeof copy.verify === 'object')
      copy.verify = { ...(copy.verify as object), target: bind((copy.verify as { target: unknown }).target) };
    return copy as UiActionInput;
  }

  #environment(): ActEnvironment {
    return {
      page: this.#page,
      policy: this.#options.policy,
      redactor: this.#redactor,
      attended: this.#options.attended,
      refs: this.#refs,
      dialog: () => this.#dialog,
      fileChooser: () => this.#chooser,
      clearBlocking: () => {
        this.#dialog = undefined;
        this.#chooser = undefined;
      },
      activity: this.#activity,
      blockedSince: (time) => this.#blocked.filter((entry) => entry.at >= time),
      state: async () => {
        if (this.#dialog) return 'dialog';
        if (this.#chooser) return 'file_chooser';
        if (await this.#hasPassword()) return 'auth_required';
        return [...this.#status.values()].some((status) => status >= 500) ? 'error' : 'ready';
      },
      serverErrorSince: (time) => this.#serverErrors.find((entry) => entry.at >= time)?.status,
      deadline: Date.now() + (this.#options.actionTimeoutMs ?? 8_000),
      quietMs: this.#options.quietMs ?? 600,
      signIn: this.#signingIn,
      reads: this.#reads,
    };
  }

  reads(): Record<string, string> {
    return { ...this.#reads };
  }

  refs(): Map<string, ElementRecord> {
    return this.#refs;
  }

  acceptedDialogs(): string[] {
    return [...this.#acceptedDialogs];
  }

  async fingerprint(): Promise<{ fingerprint: string; url: string }> {
    const { fingerprint } = await pageFingerprint(this.#page);
    return { fingerprint, url: this.#page.url() };
  }

  /** Dialogs and statuses are per page; a person handing back the page resets nothing else. */
  blockedRequests(): Array<{ url: string; reason: string }> {
    return this.#blocked.map(({ url, reason }) => ({ url, reason }));
  }
}
