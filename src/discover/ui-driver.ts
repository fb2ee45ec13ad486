import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Rehearsal } from '../capability/capability.js';
import { fillTemplate, type OutputSource } from '../capability/capability.js';
import { frameErrorPage, settledFingerprint } from '../capability/fingerprint.js';
import { readSource, type SourceReading } from '../capability/page-outputs.js';
import { type PageAnswer, readPageAnswer } from '../capability/page-texts.js';
import type { ToolEvent } from '../contract/context.js';
import { LiftError } from '../contract/errors.js';
import { literalPattern } from '../contract/pattern.js';
import { performAction, type StepResult } from '../rungs/ui/act.js';
import { runBatch } from '../rungs/ui/act-batch.js';
import { type ActionTarget, isRef, type UiActionInput, UiActionSchema } from '../rungs/ui/actions.js';
import { withTableRecorded } from '../rungs/ui/cell-table.js';
import { refreshRefs, resolveElement, uniqueTarget } from '../rungs/ui/element.js';
import { PageHarness } from '../rungs/ui/harness.js';
import { isAppErrorStatus } from '../rungs/ui/http-status.js';
import { resolveTarget, type Target } from '../rungs/ui/locator.js';
import type { Observation } from '../rungs/ui/observe.js';
import type { BlockedRequest } from '../rungs/ui/page-tracker.js';
import type { UiPolicy } from '../rungs/ui/policy.js';
import type { ElementRecord } from '../rungs/ui/render.js';
import type { SignInRecipe } from '../rungs/ui/sign-in.js';
import { passwordFrame } from '../rungs/ui/sign-in-form.js';
import { type ActionTrace, ActionTraces } from './action-traces.js';
import { type RehearsalPlan, rehearse } from './rehearsal.js';
import type { UiDriver } from './session.js';
import type { CheckedTarget } from './types.js';

/** How a discovery session signs in: the recipe, and where its secrets are read from. */
export interface DiscoverySignIn {
  recipe: SignInRecipe;
  /** Reads a named secret (the secret store); a recipe of literal values needs none. */
  secret?: (name: string) => string;
}

export interface PageDriverOptions {
  page: Page;
  policy: UiPolicy;
  /** Values bound to the task inputs, shown to the explorer as placeholders. */
  bound: Record<string, string>;
  /** Columns whose values the explorer never sees (balances). */
  hiddenColumns: string[];
  /** The session's own sign-in; typed by Lift, never by a model. */
  signIn?: DiscoverySignIn;
  /** Keeps the browser profile after a sign-in. */
  saveProfile?: () => Promise<void>;
  attended: boolean;
  /** Whether a text holds a stored secret: screenshots black it out. */
  isSecret?: (text: string) => boolean;
  outputDir: string;
  emit?: (event: ToolEvent) => void;
}

/** How long a checkpoint's ref is looked for on the page: the element is there, the machine may be slow. */
const REF_LOOKUP_MS = 5_000;

/** After a rejection (or a surprise) the rest of the batch was planned on a wrong assumption. */
function stopsBatch(step: StepResult): boolean {
  return step.status === 'rejected' || step.effect === 'unexpected';
}

/**
 * The structured-UI rung as discovery uses it: the one page harness (request guard,
 * tracker, redactor, sign-in), plus what the compiler needs: raw reads, refs, accepted
 * dialogs and the start page's fingerprint.
 */
export class PageDriver implements UiDriver {
  readonly #harness: PageHarness;
  readonly #bound: Record<string, string>;
  readonly #reads: Record<string, string> = {};
  #signedIn = false;
  readonly #acceptedDialogs: string[] = [];
  #refs = new Map<string, ElementRecord>();
  #sequence = 0;
  #traces: ReadonlyMap<number, ActionTrace> = new Map();

  readonly #options: PageDriverOptions;

  private constructor(harness: PageHarness, options: PageDriverOptions) {
    this.#harness = harness;
    this.#bound = options.bound;
    this.#options = options;
  }

  /** Guards the page, then returns the driver. */
  static async create(options: PageDriverOptions): Promise<PageDriver> {
    const harness = await PageHarness.open(options.page, {
      policy: options.policy,
      inputs: options.bound,
      hiddenColumns: options.hiddenColumns,
      attended: options.attended,
      ...(options.isSecret ? { isSecret: options.isSecret } : {}),
      outputDir: options.outputDir,
      ...(options.signIn ? { signIn: options.signIn.recipe } : {}),
      ...(options.signIn?.secret ? { secret: options.signIn.secret } : {}),
      ...(options.saveProfile ? { saveProfile: options.saveProfile } : {}),
      ...(options.emit ? { emit: options.emit } : {}),
    });
    return new PageDriver(harness, options);
  }

  get page(): Page {
    return this.#harness.page;
  }

  /**
   * Opens the start page, signing in first when the page asks and the session can. A recipe
   * that does not fit the form, or a form it never takes for its own in a browser never signed
   * in, stops the start with AUTH_REQUIRED saying why (the session never goes on signed out).
   */
  async open(url: string): Promise<void> {
    const { origin } = new URL(url);
    const fresh = await this.#harness.neverSignedIn(origin);
    if (await this.#harness.signInAtOpen(origin)) this.#signedIn = true;
    await this.#harness.goto(url);
    if (!this.#harness.canSignIn) return;
    if ((await this.#harness.state()) !== 'auth_required') {
      if (fresh) await this.#harness.assertNoStraySignIn();
      return;
    }
    await this.#harness.signIn();
    this.#signedIn = true;
    const here = new URL(this.#harness.page.url());
    const wanted = new URL(url);
    if (`${here.pathname}${here.search}` !== `${wanted.pathname}${wanted.search}`)
      await this.#harness.goto(url);
  }

  async observe(options: {
    screenshot?: boolean;
    find?: { match: string; table?: string | undefined };
    page?: number;
  }): Promise<{
    observation: Observation;
    screenshotPath?: string;
  }> {
    const sequence = ++this.#sequence;
    // A bound input is looked for by name ({{input.email}}): the explorer never knows its value.
    const find = options.find
      ? {
          match: fillTemplate(options.find.match, this.#bound),
          ...(options.find.table ? { table: options.find.table } : {}),
        }
      : undefined;
    const { observation, index } = await this.#harness.observe(sequence, find, options.page);
    if (!observation.dialog) this.#refs = index.elements;
    if (!options.screenshot || observation.dialog) return { observation };
    const screenshotPath = join(this.#harness.outputDir ?? '.', `observation-${sequence}.png`);
    await this.#harness.screenshot(screenshotPath);
    return { observation, screenshotPath };
  }

  async act(actions: UiActionInput[]): Promise<StepResult[]> {
    const parsed = actions.map((raw) => UiActionSchema.parse(this.#bindTargets(raw)));
    const traces = new ActionTraces(this.#harness);
    const results = await runBatch(
      parsed,
      async (action, index) => {
        await traces.begin(index, 'target' in action);
        const dialogBefore = this.#harness.tracker.dialog;
        // What discovery does is compiled: an element no target names alone is refused before it is acted on.
        const env = { ...this.#harness.actEnvironment(this.#refs, this.#reads), uniqueTargets: true };
        const result = await performAction(env, action, index);
        const accepted = action.op === 'dialog' && action.response === 'accept';
        if (accepted && result.status === 'executed' && dialogBefore) {
          this.#acceptedDialogs.push(dialogBefore.message());
        }
        return result;
      },
      stopsBatch,
      (since) => this.#harness.settleAfterStep(since),
    );
    this.#traces = await traces.end(results);
    return results;
  }

  /** What the last act noted of each of its actions, by its index in the batch. */
  traces(): ReadonlyMap<number, ActionTrace> {
    return this.#traces;
  }

  /**
   * Semantic targets may name a bound input as {{input.NAME}} (a row identified by the
   * member ID): the explorer refers to it by name, the page is searched with the value.
   */
  #bindTargets(action: UiActionInput): UiActionInput {
    const bind = (node: unknown, key?: string): unknown => {
      if (typeof node === 'string') {
        // In a text pattern a bound value is literal text, whatever characters it holds.
        return node.replace(/\{\{input\.([A-Za-z][A-Za-z0-9_]*)\}\}/g, (whole, name: string) => {
          const value = this.#bound[name];
          if (value === undefined) return whole;
          return key === 'pattern' ? literalPattern(value) : value;
        });
      }
      if (Array.isArray(node)) return node.map((item) => bind(item));
      if (node && typeof node === 'object')
        return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, bind(v, k)]));
      return node;
    };
    const copy = { ...(action as Record<string, unknown>) };
    if ('target' in copy) copy.target = bind(copy.target);
    // A navigation built from inputs (`/issues/{{input.number}}`) loads them URL-encoded.
    if (copy.op === 'navigate' && typeof copy.url === 'string')
      copy.url = fillTemplate(copy.url, this.#bound, encodeURIComponent);
    if (copy.verify && typeof copy.verify === 'object')
      copy.verify = { ...(copy.verify as object), target: bind((copy.verify as { target: unknown }).target) };
    return copy as UiActionInput;
  }

  reads(): Record<string, string> {
    return { ...this.#reads };
  }

  get signedIn(): boolean {
    return this.#signedIn;
  }

  async signIn(origin: string): Promise<{ at: string } | undefined> {
    if (!this.#harness.canSignIn) return undefined;
    const here = new URL(this.#harness.page.url());
    // The recipe's secrets are the application's: never typed into a form another origin
    // serves (another allowed origin, or a frame inside the application's page).
    const frame = await passwordFrame(this.#harness.page);
    const formOrigin =
      frame && frame !== this.#harness.page.mainFrame() ? new URL(frame.url()).origin : here.origin;
    if (here.origin !== origin || formOrigin !== origin) {
      throw new LiftError(
        'AUTH_REQUIRED',
        `The sign-in form is served by ${formOrigin}, not by the application's ${origin}: the session types its recipe's secrets only into the application's own form.`,
        {
          hint: 'Request a handoff for a person to sign in there, or start the session on the origin that shows the form.',
        },
      );
    }
    await this.#harness.signIn();
    this.#signedIn = true;
    return { at: `${here.pathname}${here.search}` };
  }

  shownRead(raw: string): string | undefined {
    return this.#harness.policy.showReads ? this.#harness.redactor.text(raw) : undefined;
  }

  async checkTarget(target: ActionTarget): Promise<CheckedTarget> {
    const { page } = this.#harness;
    if (isRef(target)) {
      const record = this.#refs.get(target.ref);
      if (!record) return {};
      if (record.targetOnly || record.nameFromContent) {
        const found = await resolveElement(page, { ref: target.ref, record });
        if (!found.ok || found.element.notUnique) return {};
        return { target: await withTableRecorded(page, found.element.target, found.element.locator) };
      }
      // A look at an element since the observation (a read) resets the page's aria refs; the
      // ref is given the time a loaded machine takes, where an action gives it half a second.
      await refreshRefs(page);
      const handle = await page
        .locator(`aria-ref=${record.ariaRef}`)
        .elementHandle({ timeout: REF_LOOKUP_MS })
        .catch(() => null);
      if (!handle) return {};
      try {
        const unique = await uniqueTarget(page, record.target, handle);
        return unique
          ? { target: await withTableRecorded(page, unique, await resolveTarget(page, unique)) }
          : {};
      } finally {
        await handle.dispose().catch(() => undefined);
      }
    }
    // A bound input named in it ({{input.NAME}}) is looked for by its value, as an action's is;
    // what is kept is the target as written, with what the page told about it added.
    const bound = this.#bindTargets({ op: 'wait_for', target }) as { target: Target };
    const found = await resolveElement(page, { target: bound.target });
    if (!found.ok) return found.count === 0 ? { absent: true } : {};
    if (found.element.notUnique) return {};
    const seen = await withTableRecorded(page, found.element.target, found.element.locator);
    const { locator } = target;
    const checked: Target = {
      ...target,
      ...(seen.nth !== undefined ? { nth: seen.nth } : {}),
      locator:
        locator.by === 'cell' && seen.locator.by === 'cell'
          ? {
              ...locator,
              ...(seen.locator.table !== undefined ? { table: seen.locator.table } : {}),
              ...(seen.locator.headers ? { headers: seen.locator.headers } : {}),
            }
          : locator,
    };
    return { target: checked };
  }

  refs(): Map<string, ElementRecord> {
    return this.#refs;
  }

  acceptedDialogs(): string[] {
    return [...this.#acceptedDialogs];
  }

  /**
   * The start page's fingerprint, read once the page's own scripts have built it, and the one
   * it had when first read (just after its load event) if they changed it.
   */
  async fingerprint(): Promise<{ fingerprint: string; loadFingerprint?: string; url: string }> {
    const { fingerprint, first } = await settledFingerprint(this.#harness.page);
    return {
      fingerprint,
      ...(first !== undefined && first !== fingerprint ? { loadFingerprint: first } : {}),
      url: this.#harness.page.url(),
    };
  }

  async pageAnswer(options: { loaded?: boolean } = {}): Promise<PageAnswer> {
    const { page, tracker, timings } = this.#harness;
    if (options.loaded) {
      // A page still loading has not answered yet (bounded: a page that never loads is still read).
      await tracker.documentsSettled(timings.navigationTimeoutMs);
      await page.waitForLoadState('load', { timeout: timings.navigationTimeoutMs }).catch(() => undefined);
    }
    return readPageAnswer(page, (frame) => tracker.status(frame));
  }

  async errorPages(): Promise<string[]> {
    const { page, tracker } = this.#harness;
    const failed = page.frames().filter((frame) => isAppErrorStatus(tracker.status(frame)));
    const hashes = await Promise.all(failed.map(frameErrorPage));
    return hashes.filter((hash): hash is string => hash !== undefined);
  }

  /** Requests the guard stopped during this session: origin and path only. */
  blockedRequests(): BlockedRequest[] {
    return this.#harness.blockedRequests();
  }

  /**
   * Proves a compiled capability on fresh pages of this page's browser context (its cookies,
   * its sign-in), as replay will run it: see rehearsal.ts.
   */
  rehearse(plan: RehearsalPlan): Promise<Rehearsal> {
    const options = this.#options;
    const signIn = options.signIn;
    return rehearse(() => this.#harness.page.context().newPage(), plan, {
      evidenceDir: join(options.outputDir, 'rehearsal'),
      ...(options.emit ? { emit: options.emit } : {}),
      ...(options.isSecret ? { isSecret: options.isSecret } : {}),
      ...(signIn ? { signIn: signIn.recipe } : {}),
      ...(signIn?.secret ? { secret: signIn.secret } : {}),
      ...(options.saveProfile ? { saveProfile: options.saveProfile } : {}),
      effectClass: plan.writeAt === undefined ? 'read' : 'irreversible',
    });
  }

  readSource(source: OutputSource): Promise<SourceReading> {
    return readSource(this.#harness.page, source);
  }

  /** Stops the harness's events; the page keeps its guard until it closes. */
  detach(): void {
    this.#harness.detach();
  }
}
