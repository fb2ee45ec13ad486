import type { Page } from 'playwright-core';
import {
  bindPlaceholders,
  type Capability,
  type CapabilityOutcome,
  type Postcondition,
  revisionOf,
  type Step,
  type Value,
} from '../capability/capability.js';
import { fingerprintOf, pageFingerprint } from '../capability/fingerprint.js';
import type { ToolEvent } from '../contract/context.js';
import type { EffectClass } from '../contract/effects.js';
import { LiftError } from '../contract/errors.js';
import { PageHarness } from '../rungs/ui/harness.js';
import { resolveTarget, type Target } from '../rungs/ui/locator.js';
import type { PageTracker } from '../rungs/ui/page-tracker.js';
import type { UiPolicy } from '../rungs/ui/policy.js';
import type { SignInRecipe } from '../rungs/ui/sign-in.js';
import { Classifier, type PageState } from './classify.js';
import { maskedScreenshot } from './evidence.js';
import { replayPolicy } from './policy.js';

import {
  describeTarget,
  isStrictViolation,
  offered,
  type Probe,
  probeTarget,
  waitVisible,
} from './targets.js';
import { type OutputValue, parseTyped, validateInputs } from './values.js';

export interface HandoffRequest {
  reason: string;
  deadlineMs: number;
}

export interface ReplayOptions {
  /** A page of a signed-in browser context; replay navigates it to the start page. */
  page: Page;
  /** Pinned revision: the capability must hash to it, or nothing touches the page. */
  revision?: string;
  /** Skip the start page fingerprint and rely on the semantic locators alone. */
  layoutTolerant?: boolean;
  /** Reads may start over after a handoff; writes never repeat a click. */
  effectClass?: EffectClass;
  /** Attended (headed) runs: a person signs in again; resolves when they are done. */
  handoff?: (request: HandoffRequest) => Promise<void>;
  /** Folder for masked screenshots. */
  evidenceDir: string;
  emit?: (event: ToolEvent) => void;
  /** Bound for each step's wait (default UI_DEFAULTS.replayStepTimeoutMs). */
  stepTimeoutMs?: number;
  /** What the page may request (default replayPolicy: the capability's origin, any path). */
  policy?: UiPolicy;
  /** The session's own sign-in (passwordFormSignIn), tried once when the page asks for it. */
  signIn?: SignInRecipe;
  /** Reads a named secret for the sign-in (ToolContext.secret). */
  secret?: (name: string) => string;
  /** Keeps the browser profile after a sign-in (a pooled lease's save). */
  saveProfile?: () => Promise<void>;
  /** Called just before the first step that could change the application (capability/effects.ts). */
  markStarted?: () => void;
}

export interface ReplayResult {
  outcome: CapabilityOutcome;
  outputs: Record<string, OutputValue>;
  revision: string;
  /** Steps performed, including those of a restart after a handoff. */
  stepsRun: number;
  checkpoint: { expected: string; actual: string; passed: boolean } | undefined;
  reloads: number;
  handoffs: number;
  durationMs: number;
}

type Settled = 'ok' | 'not_found' | 'restart';

const CHUNK_MS = 200;
const NOTHING: Postcondition = { kind: 'none' };

class Replay {
  readonly #capability: Capability;
  readonly #options: ReplayOptions;
  readonly #page: Page;
  readonly #inputs: Record<string, OutputValue>;
  readonly #harness: PageHarness;
  readonly #watch: PageTracker;
  readonly #startedAt = Date.now();
  readonly #classifier: Classifier;
  readonly #timeout: number;
  readonly outputs: Record<string, OutputValue> = {};
  reloads = 0;
  handoffs = 0;
  signedIn = false;
  stepsRun = 0;
  /** A step that can change the application has reached the page: a failure from now on may have left a write behind. */
  started = false;
  /** The target the last postcondition saw exactly once and visible, and the documents loaded by then. */
  #seen: { key: string; loads: number } | undefined;

  constructor(
    capability: Capability,
    inputs: Record<string, OutputValue>,
    options: ReplayOptions,
    harness: PageHarness,
  ) {
    this.#capability = capability;
    this.#options = options;
    this.#page = options.page;
    this.#inputs = inputs;
    this.#harness = harness;
    this.#watch = harness.tracker;
    this.#classifier = new Classifier(options.page, this.#watch);
    this.#timeout = options.stepTimeoutMs ?? harness.timings.replayStepTimeoutMs;
  }

  #markStarted(): void {
    this.started = true;
    this.#options.markStarted?.();
  }

  /** How a failure now leaves the application: untouched, or maybe changed. */
  #outcome(): 'unknown' | 'not_started' {
    return this.started ? 'unknown' : 'not_started';
  }

  emit(type: string, data: Record<string, unknown> = {}): void {
    this.#options.emit?.({ type, ...data });
  }

  /** Leaves the page clean for its next use: no dialog open, no listener of this replay. */
  async detach(): Promise<void> {
    await this.#watch.dismissDialog();
    this.#harness.detach();
  }

  /** A request the guard stopped since the replay began ends it: the page went somewhere it may not. */
  assertNothingBlocked(): void {
    const [blocked] = this.#watch.blockedSince(this.#startedAt);
    if (!blocked) return;
    const redactor = this.#harness.redactor;
    throw new LiftError(
      'POLICY_BLOCKED',
      `The page tried to load ${redactor.text(blocked.url)}, which the policy does not allow (${redactor.text(blocked.reason)}); the request was stopped before it was sent.`,
      {
        hint: 'The application sent the replay somewhere its policy does not allow. A person should look at the page before another replay.',
        outcome: this.#outcome(),
      },
    );
  }

  async run(): Promise<CapabilityOutcome> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const settled = await this.#runOnce();
      if (settled !== 'restart') return settled === 'ok' ? 'found' : 'not_found';
    }
    throw new LiftError('AUTH_REQUIRED', 'The session expired again after the handoff.', {
      outcome: this.#outcome(),
    });
  }

  async #runOnce(): Promise<Settled> {
    const start = await this.#openStart();
    if (start !== 'ok') return start;
    for (const [index, step] of this.#capability.steps.entries()) {
      const t0 = performance.now();
      const settled = await this.#step(step, index);
      this.stepsRun++;
      this.emit('replay-step', {
        index,
        op: step.op,
        ms: Math.round(performance.now() - t0),
        result: settled,
      });
      if (settled !== 'ok') return settled;
    }
    return 'ok';
  }

  async #openStart(): Promise<Settled> {
    const { origin, path, fingerprint } = this.#capability.preconditions;
    const url = new URL(path, origin).href;
    await this.#harness.goto(url);
    // One read per frame gives both the classification and the start page's skeleton.
    const start = await this.#classifier.startPage();
    const settled = await this.#handle(start.state);
    if (settled !== 'ok') return settled;
    if (this.#options.layoutTolerant) {
      this.emit('replay-precondition', { checked: false, reason: 'layout-tolerant' });
      return 'ok';
    }
    // After a reload or an accepted dialog the page read first is gone: read it again.
    const skeleton = start.state.kind === 'ok' ? start.skeleton : undefined;
    const actual = skeleton
      ? { fingerprint: fingerprintOf(skeleton), skeleton }
      : await pageFingerprint(this.#page);
    const matches = actual.fingerprint === fingerprint;
    this.emit('replay-precondition', { checked: true, matches });
    if (!matches) {
      throw new LiftError(
        'SURFACE_CHANGED',
        `The start page ${url} does not match the capability's fingerprint.`,
        {
          hint: `The screen changed since discovery. Rediscover the capability (lift discover), or replay with --layout-tolerant if only the arrangement changed.`,
          outcome: this.#outcome(),
          details: {
            expected: fingerprint,
            actual: actual.fingerprint,
            skeleton: actual.skeleton.slice(0, 40),
          },
        },
      );
    }
    return 'ok';
  }

  async #step(step: Step, index: number): Promise<Settled> {
    switch (step.op) {
      case 'navigate': {
        const url = new URL(step.path, this.#capability.preconditions.origin).href;
        await this.#harness.goto(url);
        return this.#settle(step.expect);
      }
      case 'click': {
        const found = await this.#findOne(step.target, index);
        if (typeof found === 'string') return found;
        const target = found.locator;
        this.#markStarted();
        await this.#act(() => target.click({ timeout: this.#timeout }), step.target, index);
        await this.#watch.documentsSettled(this.#timeout);
        return this.#settle(step.expect);
      }
      case 'fill': {
        const found = await this.#findOne(step.target, index);
        if (typeof found === 'string') return found;
        const target = found.locator;
        const value = this.#value(step.value);
        await this.#act(() => target.fill(value, { timeout: this.#timeout }), step.target, index);
        // The field just filled is the postcondition's usual target: read it where it is.
        const filled = await target.inputValue({ timeout: this.#timeout }).catch(() => undefined);
        return this.#settle(filled === value ? NOTHING : step.expect);
      }
      case 'select': {
        const found = await this.#findOne(step.target, index);
        if (typeof found === 'string') return found;
        const target = found.locator;
        const value = this.#value(step.value);
        this.#markStarted();
        await this.#act(
          () => target.selectOption({ label: value }, { timeout: this.#timeout }).then(() => undefined),
          step.target,
          index,
        );
        return this.#settle(step.expect);
      }
      case 'check': {
        const found = await this.#findOne(step.target, index);
        if (typeof found === 'string') return found;
        const target = found.locator;
        this.#markStarted();
        await this.#act(
          () => target.setChecked(step.checked, { timeout: this.#timeout }),
          step.target,
          index,
        );
        return this.#settle(step.expect);
      }
      case 'press': {
        const found = await this.#findOne(step.target, index);
        if (typeof found === 'string') return found;
        const target = found.locator;
        this.#markStarted();
        await this.#act(() => target.press(step.key, { timeout: this.#timeout }), step.target, index);
        await this.#watch.documentsSettled(this.#timeout);
        return this.#settle(step.expect);
      }
      case 'wait_for': {
        const found = await this.#findOne(step.target, index, { visible: true });
        if (typeof found === 'string') return found;
        return this.#settle(found.visible ? NOTHING : step.expect);
      }
      case 'read': {
        const found = await this.#findOne(step.target, index, { text: true });
        if (typeof found === 'string') return found;
        const text = found.text ?? '';
        const spec = this.#capability.outputs.find((output) => output.name === step.output)!;
        const value = parseTyped(text, spec.type);
        if (value === undefined) {
          throw await this.#surfaceChanged(
            `Step ${index + 1} read ${describeTarget(this.#bind(step.target))}, which does not hold a ${spec.type}.`,
            step.target,
          );
        }
        this.outputs[step.output] = value;
        this.emit('replay-read', { index, output: step.output, valueType: spec.type });
        return 'ok';
      }
    }
  }

  #bind(target: Target): Target {
    return bindPlaceholders(target, this.#inputs);
  }

  #value(value: Value): string {
    return 'input' in value ? String(this.#inputs[value.input]) : value.literal;
  }

  /** Finds the target fresh, classifying the page while it is absent; exactly one match or SURFACE_CHANGED. */
  async #findOne(
    raw: Target,
    index: number,
    want: { visible?: boolean; text?: boolean } = {},
  ): Promise<Probe | 'not_found' | 'restart'> {
    const target = this.#bind(raw);
    const seen = this.#justSeen(target);
    if (seen && !want.text) {
      // The last postcondition saw exactly one, visible, and nothing has loaded since. Actions
      // are strict too, so a second match appearing in between still stops the step.
      return { locator: await resolveTarget(this.#page, target), count: 1, visible: true };
    }
    const deadline = performance.now() + this.#timeout;
    for (;;) {
      this.assertNothingBlocked();
      const found = await probeTarget(this.#page, target, want);
      const { count } = found;
      if (count === 1) return found;
      if (count > 1) {
        throw await this.#surfaceChanged(
          `Step ${index + 1}: ${describeTarget(target)} matches ${count} elements.`,
          target,
        );
      }
      if ((await waitVisible(this.#page, target, CHUNK_MS)) !== 'absent') continue;
      const settled = await this.#handle(await this.#classifier.classify());
      if (settled === 'not_found' || settled === 'restart') return settled;
      if (performance.now() > deadline) {
        throw await this.#surfaceChanged(
          `Step ${index + 1}: ${describeTarget(target)} is not on the page.`,
          target,
        );
      }
    }
  }

  /** Whether the last postcondition saw exactly this target, once and visible, with no document loaded since. */
  #justSeen(target: Target): boolean {
    const seen = this.#seen;
    return (
      seen !== undefined &&
      seen.loads === this.#watch.loads &&
      target.locator.by !== 'cell' &&
      seen.key === JSON.stringify(target)
    );
  }

  async #act(action: () => Promise<void>, target: Target, index: number): Promise<void> {
    try {
      await action();
    } catch (error) {
      if (isStrictViolation(error)) {
        throw await this.#surfaceChanged(
          `Step ${index + 1}: ${describeTarget(this.#bind(target))} matches more than one element.`,
          target,
        );
      }
      const message = error instanceof Error ? error.message : String(error);
      const reason = /not enabled|disabled/i.test(message)
        ? 'the element is disabled'
        : /intercepts pointer events/i.test(message)
          ? 'another element covers it'
          : /outside of the viewport/i.test(message)
            ? 'it is off screen'
            : 'it did not become actionable';
      throw new LiftError(
        'NO_CHANGE',
        `Step ${index + 1}: ${describeTarget(this.#bind(target))} could not be used: ${reason}.`,
        {
          hint: `Nothing was clicked twice. The page blocks the action (${reason}); a person should look at it before another replay.`,
          outcome: this.#outcome(),
          details: { screenshot: await this.#screenshot('no-change') },
        },
      );
    }
  }

  /** After a step: the postcondition holds, or the page classification decides. */
  async #settle(expect: Postcondition | undefined): Promise<Settled> {
    const deadline = performance.now() + this.#timeout;
    for (;;) {
      this.assertNothingBlocked();
      // Both only read the page; the classification decides first when it is not ok.
      const [holds, state] = await Promise.all([this.#holds(expect), this.#classifier.classify()]);
      const settled = await this.#handle(state);
      if (settled !== 'ok') return settled;
      if (holds) {
        // Navigation events reach us before the answer of a look taken in the new document,
        // so the count read now covers the document the target was seen in.
        const bound = this.#bindExpect(expect);
        this.#seen =
          bound?.kind === 'visible'
            ? { key: JSON.stringify(bound.target), loads: this.#watch.loads }
            : undefined;
        return 'ok';
      }
      if (performance.now() > deadline) {
        throw await this.#surfaceChanged(
          `The page did not reach the expected state (${describePostcondition(this.#bindExpect(expect))}).`,
          expect && 'target' in expect ? expect.target : undefined,
        );
      }
    }
  }

  #bindExpect(expect: Postcondition | undefined): Postcondition | undefined {
    return expect ? bindPlaceholders(expect, this.#inputs) : undefined;
  }

  async #holds(raw: Postcondition | undefined): Promise<boolean> {
    const expect = this.#bindExpect(raw);
    if (!expect) return true;
    switch (expect.kind) {
      case 'none':
        return true;
      case 'visible': {
        const seen = await waitVisible(this.#page, expect.target, CHUNK_MS);
        if (seen === 'ambiguous') {
          throw await this.#surfaceChanged(
            `${describeTarget(expect.target)} matches more than one element.`,
            expect.target,
          );
        }
        return seen === 'visible';
      }
      case 'value': {
        if ((await waitVisible(this.#page, expect.target, CHUNK_MS)) !== 'visible') return false;
        const locator = await resolveTarget(this.#page, expect.target);
        const value = await locator
          .first()
          .inputValue({ timeout: CHUNK_MS })
          .catch(() => undefined);
        return value === this.#value(expect.equals);
      }
      case 'checked': {
        if ((await waitVisible(this.#page, expect.target, CHUNK_MS)) !== 'visible') return false;
        const locator = await resolveTarget(this.#page, expect.target);
        const checked = await locator
          .first()
          .isChecked({ timeout: CHUNK_MS })
          .catch(() => !expect.checked);
        return checked === expect.checked;
      }
    }
  }

  /** Turns a page state into what happens next; failures become typed errors. */
  async #handle(state: PageState): Promise<Settled> {
    if (state.kind !== 'ok') this.emit('replay-classify', { state: state.kind, detail: state.detail });
    switch (state.kind) {
      case 'ok':
        return 'ok';
      case 'not_found':
        if (this.#capability.outcomes.includes('not_found')) return 'not_found';
        throw new LiftError('NOT_FOUND', `The application answered: ${state.detail}`);
      case 'dialog': {
        const message = state.dialog.message();
        if (this.#capability.dialogs.some((declared) => message.includes(declared))) {
          await state.dialog.accept();
          return this.#handle(await this.#classifier.classify());
        }
        await state.dialog.dismiss().catch(() => undefined);
        throw new LiftError('UNEXPECTED_STATE', `An undeclared dialog opened: ${state.detail}`, {
          hint: 'The capability does not declare this dialog, so the replay stopped (it was dismissed). Rediscover the capability if the dialog is now part of the screen.',
          outcome: this.#outcome(),
        });
      }
      case 'transient': {
        if (this.reloads >= 1) {
          throw new LiftError(
            'UPSTREAM_ERROR',
            `The application still answers with a server error after one reload (${state.detail}).`,
            {
              outcome: this.#outcome(),
            },
          );
        }
        this.reloads++;
        this.emit('replay-reload', { detail: state.detail });
        this.#watch.forget(state.frame);
        await state.frame.goto(state.frame.url(), { waitUntil: 'load', timeout: this.#timeout });
        return this.#handle(await this.#classifier.classify());
      }
      case 'auth_expired': {
        const { handoff } = this.#options;
        // Starting over repeats every step: only a read, or a replay that has sent nothing yet.
        const canRestart = this.#options.effectClass === 'read' || !this.started;
        if (this.#harness.canSignIn && !this.signedIn && canRestart) {
          this.signedIn = true;
          this.emit('replay-sign-in', {});
          await this.#harness.signIn();
          return 'restart';
        }
        if (!handoff || this.handoffs >= 1 || !canRestart) {
          throw new LiftError('AUTH_REQUIRED', `The session expired: ${state.detail}.`, {
            hint: 'A person must sign in again (run attended with --headed for a handoff). The replay did not guess credentials.',
            outcome: this.#outcome(),
          });
        }
        this.handoffs++;
        this.emit('replay-handoff', { reason: state.detail });
        await handoff({
          reason: `Sign in again: ${state.detail}`,
          deadlineMs: this.#harness.timings.handoffTimeoutMs,
        });
        this.emit('replay-handoff-done', {});
        return 'restart';
      }
      case 'app_error':
        throw new LiftError('APP_ERROR', `The application showed an error page: ${state.detail}`, {
          outcome: this.#outcome(),
          details: { screenshot: await this.#screenshot('app-error') },
        });
    }
  }

  async #surfaceChanged(message: string, target: Target | undefined): Promise<LiftError> {
    const bound = target ? this.#bind(target) : undefined;
    return new LiftError('SURFACE_CHANGED', message, {
      hint: 'The screen no longer offers what the capability expects. Rediscover it (lift discover); do not retry blindly.',
      outcome: this.#outcome(),
      details: {
        ...(bound ? { expected: describeTarget(bound), offered: await offered(this.#page, bound) } : {}),
        screenshot: await this.#screenshot('surface-changed'),
      },
    });
  }

  #screenshot(label: string): Promise<string | undefined> {
    return maskedScreenshot(this.#page, this.#capability, this.#inputs, this.#options.evidenceDir, label);
  }

  async checkpoint(): Promise<ReplayResult['checkpoint']> {
    const { target: raw, equals, match } = this.#capability.checkpoint;
    const target = this.#bind(raw);
    const expected = String(this.#inputs[equals.input]);
    const { count, text } = await probeTarget(this.#page, target, { text: true });
    const actual = count === 1 ? (text ?? '').trim() : '';
    const passed = match === 'exact' ? actual === expected : actual.includes(expected);
    this.emit('replay-checkpoint', { target: describeTarget(target), passed });
    return { expected, actual, passed };
  }
}

function describePostcondition(expect: Postcondition | undefined): string {
  if (!expect) return 'page loaded';
  switch (expect.kind) {
    case 'none':
      return 'nothing';
    case 'visible':
      return `${describeTarget(expect.target)} visible`;
    case 'value':
      return `${describeTarget(expect.target)} holds the value`;
    case 'checked':
      return `${describeTarget(expect.target)} ${expect.checked ? 'checked' : 'unchecked'}`;
  }
}

/**
 * Replays a capability on a live page with no model anywhere on the path: pins the
 * revision, checks the start page, resolves each target fresh, checks each step's
 * postcondition, classifies the page between steps, and compares the page with the
 * bound inputs before any output is returned.
 */
export async function replayCapability(
  capability: Capability,
  rawInputs: unknown,
  options: ReplayOptions,
): Promise<ReplayResult> {
  const t0 = performance.now();
  const revision = revisionOf(capability);
  if (options.revision !== undefined && options.revision !== revision) {
    throw new LiftError(
      'REVISION_MISMATCH',
      `The capability hashes to ${revision.slice(0, 12)}, not the pinned ${options.revision.slice(0, 12)}.`,
      {
        outcome: 'not_started',
        details: { expected: options.revision, actual: revision },
      },
    );
  }
  const inputs = validateInputs(capability, rawInputs);
  const harness = await PageHarness.open(options.page, {
    policy: options.policy ?? replayPolicy(capability),
    inputs: Object.fromEntries(Object.entries(inputs).map(([name, value]) => [name, String(value)])),
    ...(options.emit ? { emit: options.emit } : {}),
    ...(options.signIn ? { signIn: options.signIn } : {}),
    ...(options.secret ? { secret: options.secret } : {}),
    ...(options.saveProfile ? { saveProfile: options.saveProfile } : {}),
  });
  const replay = new Replay(capability, inputs, options, harness);
  replay.emit('replay-start', { capability: capability.name, revision, steps: capability.steps.length });
  try {
    const outcome = await replay.run();
    replay.assertNothingBlocked();
    const checkpoint = outcome === 'found' ? await replay.checkpoint() : undefined;
    if (checkpoint && !checkpoint.passed) {
      throw new LiftError(
        'CHECK_FAILED',
        `The page shows '${checkpoint.actual}', not the requested '${checkpoint.expected}'.`,
        {
          hint: 'The final checkpoint compares the page with the bound inputs; no output was returned.',
          outcome: 'unknown',
        },
      );
    }
    const durationMs = Math.round((performance.now() - t0) * 10) / 10;
    replay.emit('replay-end', { outcome, ms: durationMs });
    return {
      outcome,
      outputs: outcome === 'found' ? replay.outputs : {},
      revision,
      stepsRun: replay.stepsRun,
      checkpoint,
      reloads: replay.reloads,
      handoffs: replay.handoffs,
      durationMs,
    };
  } catch (error) {
    replay.emit('replay-end', {
      outcome: 'error',
      code: error instanceof LiftError ? error.code : 'INTERNAL_ERROR',
    });
    throw error;
  } finally {
    await replay.detach();
  }
}
