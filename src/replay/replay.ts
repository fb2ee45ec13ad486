import type { Locator, Page } from 'playwright-core';
import {
  bindPlaceholders,
  type Capability,
  type CapabilityOutcome,
  fillTemplate,
  type Postcondition,
  type Step,
  type Value,
} from '../capability/capability.js';
import { canChangeState } from '../capability/effects.js';
import { sourceKind } from '../capability/page-outputs.js';
import { LiftError } from '../contract/errors.js';
import type { RunEventType } from '../contract/events.js';
import type { PageHarness } from '../rungs/ui/harness.js';
import type { Target } from '../rungs/ui/locator.js';
import type { QuietSince } from '../rungs/ui/quiet.js';
import { performStep } from './act-on-page.js';
import { Classifier, type PageState } from './classify.js';
import { Failures } from './failures.js';
import { findTarget, type TargetSearchHost } from './find-target.js';
import { isKeyCellOf, KeyCellMemo } from './key-cell-memo.js';
import { LookAhead, type Want } from './look-ahead.js';
import type { ReplayOptions, ReplayResult, Settled } from './options.js';
import { PageQuiet } from './page-quiet.js';
import { PageStates } from './page-states.js';
import { Pager } from './paging.js';
import { errorMessages, refusalAmong } from './refusal.js';
import { SeenTarget } from './seen-target.js';
import { type SettleHost, settle } from './settle.js';
import { OutcomeSigns } from './signs.js';
import {
  CHECKPOINT_LOOK,
  checkpointFailure,
  checkpointTargets,
  compareCheckpoint,
  outputsCheckpointReads,
} from './start-and-end.js';
import { openStart } from './start-page.js';
import { STEP_HANDLERS, type StepRunner } from './step-handlers.js';
import { describeTarget, type Probe, probeTarget, stepSubject } from './targets.js';
import { pageOutputs } from './url-outputs.js';
import { type OutputValue, parseTyped } from './values.js';
import { ActionClock, type WaitClock } from './wait-clock.js';

/**
 * One replay of a capability on one page: the run state (outputs, reloads, handoffs, whether an
 * effect started) and the step loop. The stages every step handler shares (find the target,
 * act on it, settle on the postcondition) are find-target.ts, act-on-page.ts and settle.ts;
 * the page is classified in between.
 */
export class Replay implements StepRunner, TargetSearchHost, SettleHost {
  readonly capability: Capability;
  readonly timeoutMs: number;
  readonly outputs: Record<string, OutputValue> = {};
  stepsRun = 0;
  readonly #options: ReplayOptions;
  readonly #page: Page;
  readonly #inputs: Record<string, OutputValue>;
  readonly #harness: PageHarness;
  readonly #classifier: Classifier;
  readonly #states: PageStates;
  readonly #signs: OutcomeSigns;
  readonly #clock: ActionClock;
  readonly #quiet: PageQuiet;
  // What the waits of a step (find-target.ts, settle.ts) share with the run.
  readonly pager: Pager;
  readonly failures: Failures;
  readonly keyCells: KeyCellMemo;
  readonly seen: SeenTarget;
  /** The step running now (0-based). */
  stepIndex = 0;
  readonly #startedAt = Date.now();
  /** A step that can change the application reached the page: a failure may leave a write behind. */
  #started = false;
  /** Steps whose disclosure the application kept open, so that their click has nothing to do. */
  readonly #passOver = new Set<number>();
  /** First looks of a run of reads (and of the checkpoint after it), sent together. */
  readonly #lookAhead: LookAhead;
  /** The outputs from the resulting page were read (before the checkpoint, when it compares one). */
  #pageOutputsRead = false;
  /** The application's error messages shown before the write being settled was sent. */
  #messagesBeforeWrite: string[] | undefined;
  /** For a write the application refused: its message. */
  rejection: string | undefined;

  constructor(
    capability: Capability,
    inputs: Record<string, OutputValue>,
    options: ReplayOptions,
    harness: PageHarness,
  ) {
    this.capability = capability;
    this.#options = options;
    this.#page = options.page;
    this.#inputs = inputs;
    this.#harness = harness;
    this.#clock = new ActionClock(harness);
    this.keyCells = new KeyCellMemo(() => this.#clock.pageStamp());
    this.seen = new SeenTarget(() => this.#clock.pageStamp());
    this.failures = new Failures({
      page: options.page,
      capability,
      inputs,
      harness,
      evidenceDir: options.evidenceDir,
      started: () => this.#started,
      stepIndex: () => this.stepIndex,
      emit: (type, data) => this.emit(type, data),
    });
    this.#lookAhead = new LookAhead(options.page);
    this.timeoutMs = options.stepTimeoutMs ?? harness.timings.replayStepTimeoutMs;
    this.#quiet = new PageQuiet(options.page, harness, this.#clock, this.timeoutMs, (target) =>
      this.bind(target),
    );
    this.#signs = new OutcomeSigns(options.page, harness.tracker, capability, inputs);
    // Where discovery learned what not-found looks like, words in the page's messages decide nothing.
    this.#classifier = new Classifier(options.page, harness.tracker, {
      wordsAnswer: !this.#signs.declares('not_found'),
      ...(capability.errorPages ? { errorPages: capability.errorPages } : {}),
    });
    this.pager = new Pager(this, capability.paging, capability.outcomes.includes('not_found'));
    this.#states = new PageStates({
      capability,
      harness,
      classifier: this.#classifier,
      options,
      timeoutMs: this.timeoutMs,
      started: () => this.#started,
      emit: (type, data) => this.emit(type, data),
      screenshot: (label) => this.failures.screenshot(label),
    });
  }

  get page(): Page {
    return this.#page;
  }

  get reloads(): number {
    return this.#states.reloads;
  }

  get handoffs(): number {
    return this.#states.handoffs;
  }

  get inputs(): Record<string, OutputValue> {
    return this.#inputs;
  }

  get effectClass(): ReplayOptions['effectClass'] {
    return this.#options.effectClass;
  }

  get navigationTimeoutMs(): number {
    return this.#harness.timings.navigationTimeoutMs;
  }

  emit(type: RunEventType, data: Record<string, unknown> = {}): void {
    this.#options.emit?.({ type, ...data });
  }

  /** Leaves the page clean for its next use: no dialog open, no listener of this replay. */
  async detach(): Promise<void> {
    await this.#harness.tracker.dismissDialog();
    this.#harness.detach();
  }

  /** A request the guard stopped since the replay began ends it: the page went somewhere it may not. */
  assertNothingBlocked(): void {
    this.#states.assertNothingBlocked(this.#startedAt);
  }

  /** Runs every step, starting over (at most twice) after a sign-in or a handoff. */
  async run(): Promise<CapabilityOutcome> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const settled = await this.#runOnce();
      if (settled !== 'restart') return settled === 'ok' ? 'found' : settled;
    }
    throw new LiftError('AUTH_REQUIRED', 'The session expired again after the handoff.', {
      outcome: this.failures.outcome(),
    });
  }

  async #runOnce(): Promise<Settled> {
    this.#passOver.clear();
    this.keyCells.forget();
    const start = await openStart({
      capability: this.capability,
      harness: this.#harness,
      options: this.#options,
      timeoutMs: this.timeoutMs,
      classifier: this.#classifier,
      lookAhead: this.#lookAhead,
      pageStamp: () => this.#clock.pageStamp(),
      bind: (target) => this.bind(target),
      answer: (state) => this.answer(state),
      outcome: () => this.failures.outcome(),
      emit: (type, data) => this.emit(type, data),
    });
    if (start !== 'ok') return start;
    this.#classifier.stepsBegin();
    for (const [index, step] of this.capability.steps.entries()) {
      this.stepIndex = index;
      if (this.#passOver.has(index)) {
        this.emit('replay-step-skipped', {
          index,
          op: step.op,
          target: stepSubject(step),
          reason: 'what it shows is shown already',
        });
        continue;
      }
      // A write stops where discovery saw that the record it would make is already there.
      if (await this.signShown('already_exists', index)) return 'already_exists';
      if (step.op === 'read' && this.capability.steps[index - 1]?.op !== 'read') this.#readsAhead(index);
      const t0 = performance.now();
      // The table is exhaustive over the closed union of steps; each entry takes its own kind.
      const handler = STEP_HANDLERS[step.op] as (
        runner: StepRunner,
        step: Step,
        index: number,
      ) => Promise<Settled>;
      const settled = await handler(this, step, index);
      this.stepsRun++;
      this.emit('replay-step-end', {
        index,
        op: step.op,
        target: stepSubject(step),
        ms: Math.round(performance.now() - t0),
        result: settled,
      });
      if (settled !== 'ok') return settled;
    }
    return 'ok';
  }

  bind(target: Target): Target {
    return bindPlaceholders(target, this.#inputs);
  }

  value(value: Value): string {
    if ('template' in value) return fillTemplate(value.template, this.#inputs);
    return 'input' in value ? String(this.#inputs[value.input]) : value.literal;
  }

  goto(url: string): Promise<void> {
    return this.#harness.goto(url);
  }

  quiet(near: { target: Target; locator: Locator } | undefined): Promise<void> {
    return this.#quiet.quiet(near);
  }

  scriptsSettled(): Promise<void> {
    return this.#quiet.scriptsSettled();
  }

  quietFrom(
    near: { target: Target; locator: Locator } | undefined,
    expect: Postcondition | undefined,
  ): Promise<QuietSince> {
    return this.#quiet.quietFrom(near, expect);
  }

  documentsSettled(): Promise<void> {
    return this.#quiet.documentsSettled();
  }

  lateRowsDrawn(): Promise<void> {
    return this.#quiet.lateRowsDrawn();
  }

  find(raw: Target, index: number, want?: { visible?: boolean; text?: boolean }): Promise<Probe | Settled> {
    return findTarget(this, raw, index, want);
  }

  // The rest of what find-target.ts and settle.ts use of the run (TargetSearchHost, SettleHost).

  lookedAhead(target: Target, want: Want): Promise<Probe | undefined> {
    return this.#lookAhead.take(this.#clock.pageStamp(), target, want);
  }

  startWait(): WaitClock {
    return this.#clock.startWait(this.timeoutMs);
  }

  classify(): Promise<PageState> {
    return this.#classifier.classify();
  }

  answer(state: PageState): Promise<Settled> {
    return this.#states.answer(state);
  }

  documentsLoaded(): number {
    return this.#harness.tracker.loads;
  }

  passOver(index: number): void {
    this.#passOver.add(index);
  }

  /**
   * Sends the first looks of the reads from `index` on, and of the checkpoint when they end
   * the capability, together (LookAhead): nothing acts on the page between them.
   */
  #readsAhead(index: number): void {
    const { steps } = this.capability;
    const looks: Array<{ target: Target; want: Want }> = [];
    let at = index;
    for (; steps[at]?.op === 'read' && !this.#passOver.has(at); at++)
      looks.push({
        target: this.bind((steps[at] as Extract<Step, { op: 'read' }>).target),
        want: { text: true },
      });
    // A checkpoint on the key cell of a row read here is answered by that read's own look.
    if (at === steps.length)
      for (const target of checkpointTargets(this.capability, this.#inputs))
        if (!looks.some((read) => isKeyCellOf(target, read.target)))
          looks.push({ target, want: CHECKPOINT_LOOK });
    if (looks.length > 1) this.#lookAhead.begin(this.#clock.pageStamp(), looks);
  }

  async act(
    step: Extract<Step, { target: Target }>,
    index: number,
    perform: (timeoutMs: number) => Promise<void>,
  ): Promise<void> {
    // The one notion of started: from here a failure may have left the step's effect behind.
    if (canChangeState(step)) {
      this.#started = true;
      this.#options.markStarted?.();
    }
    // A refusal is a message the write brought: what the page said before it is no answer.
    this.#messagesBeforeWrite =
      step.writes && this.capability.outcomes.includes('rejected')
        ? await errorMessages(this.#page)
        : undefined;
    this.#clock.acting();
    await performStep(this, step, index, perform);
  }

  settle(raw: Postcondition | undefined, watch?: QuietSince): Promise<Settled> {
    return settle(this, raw, watch);
  }

  refusalPossible(): boolean {
    return this.#messagesBeforeWrite !== undefined;
  }

  writeSettled(): void {
    this.#messagesBeforeWrite = undefined;
  }

  async read(step: Extract<Step, { op: 'read' }>, index: number, text: string): Promise<void> {
    const spec = this.capability.outputs.find((output) => output.name === step.output)!;
    const value = parseTyped(text, spec.type);
    if (value === undefined) {
      throw await this.failures.surfaceChanged(
        `Step ${index + 1} read ${describeTarget(this.bind(step.target))}, which does not hold a ${spec.type}.`,
        step.target,
      );
    }
    this.outputs[step.output] = value;
    this.emit('replay-value-read', { index, output: step.output, valueType: spec.type });
  }

  /**
   * Whether the application refused the write the step sent: a new error message on the page,
   * the step's own control (its form) still there.
   */
  async refused(): Promise<boolean> {
    await this.documentsSettled();
    await this.quiet(undefined);
    const step = this.capability.steps[this.stepIndex];
    const message = refusalAmong(this.#messagesBeforeWrite ?? [], await errorMessages(this.#page));
    if (!message || !step || !('target' in step)) return false;
    const form = await probeTarget(this.#page, this.bind(step.target), { visible: true }).catch(
      () => undefined,
    );
    if (form?.count !== 1 || !form.visible) return false;
    this.rejection = message;
    this.emit('replay-page-classified', { state: 'rejected', detail: 'the application refused the write' });
    return true;
  }

  /** Whether the page shows the outcome's sign after this many steps (one look, only where one was seen). */
  async signShown(outcome: 'not_found' | 'already_exists', after: number): Promise<boolean> {
    if (!this.#signs.expects(outcome, after)) return false;
    const sign = await this.#signs.shown(outcome, after);
    if (sign)
      this.emit('replay-page-classified', {
        state: outcome,
        detail: `the sign discovery saw after ${after} steps`,
      });
    return sign !== undefined;
  }

  /**
   * The outputs taken from the resulting page (URL, message, link), read once the checkpoint
   * passed, or before it when it compares one of them (a created record's id); read once.
   */
  async readPageOutputs(): Promise<void> {
    if (this.#pageOutputsRead) return;
    this.#pageOutputsRead = true;
    for (const [name, value] of Object.entries(await pageOutputs(this.#page, this.capability))) {
      this.outputs[name] = value;
      const spec = this.capability.outputs.find((output) => output.name === name);
      this.emit('replay-value-read', { output: name, from: spec?.from ? sourceKind(spec.from) : 'url' });
    }
  }

  /**
   * Compares the page with the bound inputs (and the outputs read by then) before any output is
   * returned; a comparison that fails is the error the replay answers (checkpointFailure).
   */
  async checkpoint(): Promise<NonNullable<ReplayResult['checkpoint']>> {
    if (outputsCheckpointReads(this.capability).length > 0) await this.readPageOutputs();
    const result = await compareCheckpoint(
      this.#page,
      this.capability,
      this.#inputs,
      this.timeoutMs,
      (target) => this.keyCells.known(target),
      (target) => this.#lookAhead.take(this.#clock.pageStamp(), target, CHECKPOINT_LOOK),
      this.outputs,
    );
    this.emit('replay-checkpoint-checked', {
      target: result.target,
      passed: result.passed,
      from: result.from,
      ...(result.passed ? {} : { matches: result.matches }),
    });
    if (!result.passed) throw checkpointFailure(result);
    return { expected: result.expected, actual: result.actual, passed: result.passed };
  }
}
