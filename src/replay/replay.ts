import type { Frame, Locator, Page } from 'playwright-core';
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
import { frameAt } from '../rungs/ui/frame-at.js';
import type { PageHarness } from '../rungs/ui/harness.js';
import { type FramePath, type KeyCellLook, resolveTarget, type Target } from '../rungs/ui/locator.js';
import type { QuietSince } from '../rungs/ui/quiet.js';
import { judgeAbsence, shapedByInputs } from './absence.js';
import { Classifier } from './classify.js';
import { disclosureAfter } from './disclosures.js';
import { ambiguousTarget, evidenceScreenshot, surfaceChanged } from './evidence.js';
import { LookAhead, type Want } from './look-ahead.js';
import type { ReplayOptions, ReplayResult, Settled } from './options.js';
import { PageStates } from './page-states.js';
import { Pager } from './paging.js';
import { CHUNK_MS, describePostcondition, holds, holdsNow } from './postconditions.js';
import { errorMessages, refusalAmong } from './refusal.js';
import { OutcomeSigns } from './signs.js';
import {
  CHECKPOINT_LOOK,
  checkpointFailure,
  checkpointTargets,
  compareCheckpoint,
  fingerprintMismatch,
  outputsCheckpointReads,
} from './start-and-end.js';
import { STEP_HANDLERS, type StepRunner } from './step-handlers.js';
import {
  blockedReason,
  describeTarget,
  isStrictViolation,
  type Probe,
  probeTarget,
  slowPageAt,
  stepSubject,
  waitVisible,
} from './targets.js';
import { pageOutputs } from './url-outputs.js';
import { type OutputValue, parseTyped } from './values.js';

/**
 * One replay of a capability on one page: the run state (outputs, reloads, handoffs,
 * whether an effect started) and the shared stages every step handler uses — find the
 * target, act on it, settle on the postcondition — with the page classified in between.
 */
/**
 * How long a target may be missing from a page at rest before its absence is judged: a
 * record missing from a page built as discovery saw it answers not_found then, not at the
 * step's deadline.
 */
const ABSENCE_LOOK_MS = 1_000;

/** A look at the page normally takes milliseconds; one this slow means the page or the machine is starved. */
const STARVED_LOOK_MS = 1_500;

/** Steps whose action, done twice, leaves the page as done once: a field's value, a box, an option. */
const SETS_A_STATE: ReadonlySet<Step['op']> = new Set(['fill', 'type', 'select', 'check']);

/** One wait of a step for its target or postcondition: when it began, and its slowest look. */
interface Wait {
  since: number;
  slowestLookMs: number;
  /** The page was busy when the deadline had passed; once it is not, one quiet period more. */
  busyPastDeadline?: boolean;
  graceUntil?: number;
}

export class Replay implements StepRunner {
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
  readonly #pages: Pager;
  readonly #signs: OutcomeSigns;
  /** The step running now (0-based). */
  #stepIndex = 0;
  /** When the last action began (the replay's start before any): its requests are the page's work. */
  #lastActAt = Date.now();
  /** Documents loaded when the last action started. */
  #loadsAtAct = 0;
  readonly #startedAt = Date.now();
  /** A step that can change the application reached the page: a failure may leave a write behind. */
  #started = false;
  /** The target the last postcondition saw exactly once and visible, and the documents loaded by then. */
  #seen: { key: string; loads: number; actAt: number } | undefined;
  /** Documents loaded when the page was last seen at rest within the step being settled. */
  #loadsAtRest = 0;
  /** Steps whose disclosure the application kept open, so that their click has nothing to do. */
  readonly #passOver = new Set<number>();
  /** The key cell of the row the last keyed read found, and when: a checkpoint may compare it. */
  #keyCellRead: { target: Target; cell: KeyCellLook; loads: number; actAt: number } | undefined;
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
    this.#lookAhead = new LookAhead(options.page);
    this.timeoutMs = options.stepTimeoutMs ?? harness.timings.replayStepTimeoutMs;
    this.#signs = new OutcomeSigns(options.page, harness.tracker, capability, inputs);
    // Where discovery learned what not-found looks like, words in the page's messages decide nothing.
    this.#classifier = new Classifier(options.page, harness.tracker, {
      wordsAnswer: !this.#signs.declares('not_found'),
      ...(capability.errorPages ? { errorPages: capability.errorPages } : {}),
    });
    this.#pages = new Pager(this, capability.paging, capability.outcomes.includes('not_found'));
    this.#states = new PageStates({
      capability,
      harness,
      classifier: this.#classifier,
      options,
      timeoutMs: this.timeoutMs,
      started: () => this.#started,
      emit: (type, data) => this.emit(type, data),
      screenshot: (label) => this.#screenshot(label),
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

  emit(type: RunEventType, data: Record<string, unknown> = {}): void {
    this.#options.emit?.({ type, ...data });
  }

  /** Leaves the page clean for its next use: no dialog open, no listener of this replay. */
  async detach(): Promise<void> {
    await this.#harness.tracker.dismissDialog();
    this.#harness.detach();
  }

  /** How a failure now leaves the application: untouched, or maybe changed. */
  #outcome(): 'unknown' | 'not_started' {
    return this.#started ? 'unknown' : 'not_started';
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
      outcome: this.#outcome(),
    });
  }

  async #runOnce(): Promise<Settled> {
    this.#passOver.clear();
    this.#keyCellRead = undefined;
    const start = await this.#openStart();
    if (start !== 'ok') return start;
    this.#classifier.stepsBegin();
    for (const [index, step] of this.capability.steps.entries()) {
      this.#stepIndex = index;
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
      if (await this.#signShown('already_exists', index)) return 'already_exists';
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

  /** Loads the start page, classifies it, and checks it is the screen the capability was made on. */
  async #openStart(): Promise<Settled> {
    const { origin, path } = this.capability.preconditions;
    await this.#harness.goto(new URL(path, origin).href);
    await this.#options.afterStart?.(this.#page);
    // A first step that acts on the start page waits for its scripts as after any load (WordPress
    // fills its new-user form after window load, and refuses a submit before); a read need not.
    const first = this.capability.steps[0]!;
    const acts = canChangeState(first) || first.op === 'fill' || first.op === 'type';
    const watch = acts
      ? await this.#harness.quiet.begin([this.#page.mainFrame()], this.timeoutMs)
      : undefined;
    // The first step's look goes out now too, so the frame's first look (Playwright sets up its
    // script there, tens of ms) runs while the start page is read and watched, not after.
    if ('target' in first && first.op !== 'read')
      this.#lookAhead.begin(this.#pageStamp(), [
        { target: this.#bind(first.target), want: first.op === 'wait_for' ? { visible: true } : {} },
      ]);
    // One read per frame gives both the classification and the start page's skeleton; read
    // while the scripts are watched, and again if they changed the page meanwhile (and the
    // first step looks again for itself).
    let start = await this.#classifier.startPage();
    if (watch && !(await watch.settled)) {
      this.#lookAhead.drop();
      start = await this.#classifier.startPage();
    }
    // A password field on the very screen the capability was made on is one of its fields.
    const ownScreen =
      start.state.kind === 'auth_expired' &&
      !this.#options.layoutTolerant &&
      (await this.#startPageMismatch(start.skeleton)) === undefined;
    const settled = ownScreen ? 'ok' : await this.#states.answer(start.state);
    if (settled !== 'ok') return settled;
    if (this.#options.layoutTolerant) {
      this.emit('replay-precondition-checked', { checked: false, reason: 'layout-tolerant' });
      return 'ok';
    }
    // After a reload or an accepted dialog the page read first is gone: it is read again.
    const skeleton = start.state.kind === 'ok' || ownScreen ? start.skeleton : undefined;
    let mismatch = await this.#startPageMismatch(skeleton);
    if (mismatch?.code === 'SURFACE_CHANGED' && start.state.kind === 'ok') {
      // The first read took a frame too busy to answer it for fine, or a script sent the page on
      // after it (to the sign-in page, say): the page at rest is classified before it is called
      // another screen, and a sign-in or error page there is answered as what it is.
      const atRest = await this.#classifier.startPage();
      if (atRest.state.kind !== 'ok') {
        const settled = await this.#states.answer(atRest.state);
        if (settled !== 'ok') return settled;
        mismatch = await this.#startPageMismatch(undefined);
      }
    }
    this.emit('replay-precondition-checked', { checked: true, matches: mismatch === undefined });
    if (mismatch) throw mismatch;
    return 'ok';
  }

  #startPageMismatch(skeleton: string[] | undefined): Promise<LiftError | undefined> {
    const { navigationTimeoutMs } = this.#harness.timings;
    return fingerprintMismatch(this.#page, this.capability, skeleton, this.#outcome(), navigationTimeoutMs);
  }

  #bind(target: Target): Target {
    return bindPlaceholders(target, this.#inputs);
  }

  value(value: Value): string {
    if ('template' in value) return fillTemplate(value.template, this.#inputs);
    return 'input' in value ? String(this.#inputs[value.input]) : value.literal;
  }

  goto(url: string): Promise<void> {
    return this.#harness.goto(url);
  }

  async quiet(near: { target: Target; locator: Locator } | undefined): Promise<void> {
    // A step that loaded a document waited for it, but not for the scripts that build it: an
    // app that sets itself up after load and asks for its content then (Roundcube fetches the
    // message list, and ignores a folder click until it has it) is watched, in its main frame,
    // until those requests are answered and the DOM is still, as after the start page loads.
    if (this.#harness.tracker.loads !== this.#loadsAtAct) return this.scriptsSettled();
    // The target's frame is watched as a frame, without its element: cheaper in a new document;
    // the element's while a dialog blocks the frame's answer.
    const [frame] = near ? await this.#framesAt([this.#bind(near.target).frame]) : [undefined];
    await this.#harness.quiet.settle(frame ?? near?.locator, this.timeoutMs);
  }

  /**
   * After a document loaded: waits until its scripts stop re-rendering it too (an app that
   * replaces its form's fields once loaded, as MediaWiki's widgets do), the DOM still for a
   * quiet period. One short look when nothing changes.
   */
  async scriptsSettled(): Promise<void> {
    await this.#harness.quiet.settle(undefined, this.timeoutMs);
  }

  async quietFrom(
    near: { target: Target; locator: Locator } | undefined,
    expect: Postcondition | undefined,
  ): Promise<QuietSince> {
    // The frames quiet() watches, and the one the step expects something in.
    const loaded = this.#harness.tracker.loads !== this.#loadsAtAct;
    const paths: FramePath[] = [loaded || !near ? [] : this.#bind(near.target).frame];
    if (expect && 'target' in expect) paths.push(this.#bind(expect.target).frame);
    const frames = await this.#framesAt(paths);
    if (frames.some((frame) => frame === undefined)) {
      // A frame known only through a locator (another origin's, by title): watched before the look.
      await this.quiet(near);
      return { settled: Promise.resolve(true), mainAtRest: Promise.resolve(false) };
    }
    const watched = [...new Set(frames as Frame[])];
    // A document that just came is still being parsed: its parser's changes are not a script's.
    if (loaded)
      await Promise.all(
        watched.map((frame) =>
          frame.waitForLoadState('domcontentloaded', { timeout: this.timeoutMs }).catch(() => undefined),
        ),
      );
    return this.#harness.quiet.begin(watched, this.timeoutMs);
  }

  /**
   * The frames these paths name (frameAt), each undefined when not found. Finding a frame by
   * its title asks the frame, which a dialog blocks: all undefined while one is open.
   */
  #framesAt(paths: FramePath[]): Promise<Array<Frame | undefined>> {
    const found = Promise.all(paths.map((path) => frameAt(this.#page, path)));
    return this.#harness.quiet.unlessDialog(
      found,
      this.timeoutMs,
      paths.map(() => undefined),
    );
  }

  documentsSettled(): Promise<void> {
    return this.#harness.tracker.documentsSettled(this.timeoutMs);
  }

  async find(
    raw: Target,
    index: number,
    want: { visible?: boolean; text?: boolean } = {},
  ): Promise<Probe | Settled> {
    const target = this.#bind(raw);
    const early = await this.#lookAhead.take(this.#pageStamp(), target, want);
    if (early) {
      if (early.keyCell) this.#rememberKeyCell(target, early.keyCell);
      return early;
    }
    if (this.#justSeen(target) && !want.text) {
      // The last postcondition saw exactly one, visible, and nothing has loaded since. Actions
      // are strict too, so a second match appearing in between still stops the step.
      return { locator: await resolveTarget(this.#page, target), count: 1, visible: true };
    }
    let deadline = performance.now() + this.timeoutMs;
    const wait = this.#startWait();
    let judged = false;
    for (;;) {
      this.assertNothingBlocked();
      const found = await this.#timedLook(wait, () => probeTarget(this.#page, target, want));
      if (found.count === 1) {
        if (found.keyCell) this.#rememberKeyCell(target, found.keyCell);
        return found;
      }
      if (found.count > 1) {
        throw await this.#ambiguous(
          `Step ${index + 1}: ${describeTarget(target)} matches ${found.count} elements.`,
          target,
        );
      }
      if (await this.#signShown('not_found', index)) return 'not_found';
      // A late row gets a moment to come. A list that settles before it answers not_found waits
      // that moment itself, after its requests are answered (Pager), so it looks at once here.
      const settlesAbsence = this.#pages.settlesAbsence(target);
      if (!settlesAbsence && (await waitVisible(this.#page, target, CHUNK_MS)) !== 'absent') continue;
      const settled = await this.#states.answer(await this.#classifier.classify());
      if (settled !== 'ok') return settled;
      const paged = await this.#pages.turn(target);
      if (paged === 'next') {
        deadline = performance.now() + this.timeoutMs;
        continue;
      }
      if (paged === 'last') return this.#notFound(`${describeTarget(target)} is on none of the pages`);
      // Not answered yet (the list is not shown): the look paces the loop.
      if (settlesAbsence && (await waitVisible(this.#page, target, CHUNK_MS)) !== 'absent') continue;
      const past = this.#pastDeadline(deadline, wait);
      // A page at rest for a while that is built as discovery saw it answers at once, not at the deadline.
      if (past || (!judged && this.#atRestFor(wait, ABSENCE_LOOK_MS))) {
        judged = true;
        const absence = await judgeAbsence(this.#page, this.capability, index);
        if (absence.kind === 'record') return this.#notFound(`${describeTarget(target)}: ${absence.detail}`);
        if (past)
          throw await this.#ranOut(
            wait,
            `Step ${index + 1}: ${describeTarget(target)} is not on the page.`,
            target,
            absence.structural,
          );
      }
    }
  }

  /** Whether the page has done nothing since the wait began and the wait is at least `ms` old. */
  #atRestFor(wait: Wait, ms: number): boolean {
    return Date.now() - wait.since >= ms && !this.#busy(wait);
  }

  /** Waits out what is left of a late row's moment (CHUNK_MS) since the page last loaded or fetched anything. */
  async lateRowsDrawn(): Promise<void> {
    const last = Math.max(this.#harness.tracker.lastActivity, this.#harness.quiet.lastRequestAt);
    const left = CHUNK_MS - (Date.now() - last);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
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
        target: this.#bind((steps[at] as Extract<Step, { op: 'read' }>).target),
        want: { text: true },
      });
    // A checkpoint on the key cell of a row read here is answered by that read's own look.
    if (at === steps.length)
      for (const target of checkpointTargets(this.capability, this.#inputs))
        if (!looks.some((read) => isKeyCellOf(target, read.target)))
          looks.push({ target, want: CHECKPOINT_LOOK });
    if (looks.length > 1) this.#lookAhead.begin(this.#pageStamp(), looks);
  }

  /** Names the page as it is now for a look taken on it: the documents loaded and the last action. */
  #pageStamp(): string {
    return `${this.#harness.tracker.loads} ${this.#lastActAt}`;
  }

  /** Whether a bound postcondition holds on the page now: one look that does not wait. */
  #holdsNow(expect: Postcondition | undefined): Promise<boolean | 'ambiguous'> {
    return holdsNow(
      this.#page,
      expect,
      (value) => this.value(value),
      this.#harness.timings.navigationTimeoutMs,
    );
  }

  /** A wait counts the requests of the last action as its own: they are what the page is busy with. */
  #startWait(): Wait {
    return { since: this.#lastActAt, slowestLookMs: 0 };
  }

  /** One look at the page, timed: a look that takes seconds says the machine is starved. */
  async #timedLook<T>(wait: Wait, look: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await look();
    } finally {
      wait.slowestLookMs = Math.max(wait.slowestLookMs, performance.now() - started);
    }
  }

  /**
   * Whether the page is still at work on what the step set off: a document on its way, a
   * script request started since the wait began, or looks so slow that the page (or the
   * machine) is starved. A deadline passed then says nothing about the screen.
   */
  #busy(wait: Wait): boolean {
    const { tracker } = this.#harness;
    return tracker.loading || tracker.fetchingSince(wait.since) || wait.slowestLookMs > STARVED_LOOK_MS;
  }

  /**
   * Whether a step's wait is over. A page still busy is no answer yet: the wait goes on while
   * it is, up to the navigation bound, so a slow server or a loaded machine is never a
   * changed screen.
   */
  #pastDeadline(deadline: number, wait: Wait): boolean {
    const now = performance.now();
    if (now <= deadline) return false;
    const { timings } = this.#harness;
    if (now > deadline - this.timeoutMs + timings.navigationTimeoutMs) return true;
    if (this.#busy(wait)) {
      wait.busyPastDeadline = true;
      return false;
    }
    // The request just ended: its answer is rendered a moment later, so look for one quiet period more.
    if (wait.busyPastDeadline) {
      wait.busyPastDeadline = false;
      wait.graceUntil = now + timings.quietMs;
    }
    return now > (wait.graceUntil ?? 0);
  }

  /**
   * The answer when a wait ran out: SURFACE_CHANGED only on a page at rest, where what the
   * step expected is really absent; on a page still busy, TIMEOUT with the call's outcome, which
   * never counts toward switching the capability off (a load-induced timeout once disabled a
   * capability for every worker).
   */
  async #ranOut(
    wait: Wait,
    message: string,
    target: Target | undefined,
    structural?: boolean,
  ): Promise<LiftError> {
    if (!this.#busy(wait)) return this.#surfaceChanged(message, target, structural);
    this.emit('replay-page-classified', {
      state: 'busy',
      detail: 'the page was still busy when the wait ran out',
    });
    return new LiftError(
      'TIMEOUT',
      `${message} The page was still busy when the wait ran out (a document or script request in flight, or the page answering slowly), so this says nothing about the screen.`,
      { outcome: this.#outcome() },
    );
  }

  /** Whether the last postcondition saw exactly this target, once and visible, with nothing done or loaded since. */
  #justSeen(target: Target): boolean {
    const seen = this.#seen;
    return (
      seen !== undefined &&
      seen.loads === this.#harness.tracker.loads &&
      seen.actAt === this.#lastActAt &&
      target.locator.by !== 'cell' &&
      seen.key === JSON.stringify(target)
    );
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
    this.#loadsAtAct = this.#harness.tracker.loads;
    this.#lastActAt = Date.now();
    try {
      await this.#performOnSlowPage(step, perform);
    } catch (error) {
      const what = describeTarget(this.#bind(step.target));
      if (isStrictViolation(error)) {
        throw await this.#ambiguous(`Step ${index + 1}: ${what} matches more than one element.`, step.target);
      }
      if (slowPageAt(error)) {
        throw new LiftError(
          'TIMEOUT',
          `Step ${index + 1}: ${what} was there, but the page was too slow to take the ${step.op} (a starved page or machine); it may still land.`,
          { outcome: this.#outcome() },
        );
      }
      const reason = blockedReason(error);
      throw new LiftError('NO_CHANGE', `Step ${index + 1}: ${what} could not be used: ${reason}.`, {
        hint: `Nothing was clicked twice. The page blocks the action (${reason}); a person should look at it before another replay.`,
        outcome: this.#outcome(),
        details: { screenshot: await this.#screenshot('no-change') },
      });
    }
  }

  /**
   * The action within the step's clock. On a page too slow to answer it in that time (a
   * starved renderer or machine): once more within the navigation bound when no input reached
   * the page yet or the step only sets a state (a field's value, a box checked); done when an
   * input may have reached it, and the postcondition decides whether it took (a second click
   * or Enter could act twice).
   */
  async #performOnSlowPage(step: Step, perform: (timeoutMs: number) => Promise<void>): Promise<void> {
    try {
      await perform(this.timeoutMs);
    } catch (error) {
      const at = slowPageAt(error);
      if (at === undefined) throw error;
      // Text typed at the caret is not a state: typed again, it would be there twice.
      const setsAState = SETS_A_STATE.has(step.op) && !(step.op === 'type' && step.clear === false);
      if (at === 'input_sent' && !setsAState) {
        this.emit('replay-page-classified', {
          state: 'busy',
          detail: "the page was too slow to acknowledge the step's input; its postcondition decides",
        });
        return;
      }
      this.emit('replay-page-classified', {
        state: 'busy',
        detail: "the page was too slow to take the step's action; it goes again with the navigation bound",
      });
      await perform(this.#harness.timings.navigationTimeoutMs);
    }
  }

  async settle(raw: Postcondition | undefined, watch?: QuietSince): Promise<Settled> {
    this.#loadsAtRest = this.#harness.tracker.loads;
    let settled = await this.#settleOn(raw, watch);
    // A write whose next page expects nothing in particular may still have been refused.
    if (settled === 'ok' && this.#messagesBeforeWrite && (await this.#refused())) settled = 'rejected';
    this.#messagesBeforeWrite = undefined;
    // A document that came while the postcondition was awaited (Roundcube goes back to the
    // mail view a moment after a send) shows the next step's target before its scripts are
    // set up, and a click then is ignored: the next step waits for them, as after its own load.
    // Not again when the step's watch, main frame included, saw the page at rest after it came.
    if (settled === 'ok' && this.#harness.tracker.loads !== this.#loadsAtRest) await this.scriptsSettled();
    return settled;
  }

  async #settleOn(raw: Postcondition | undefined, watch: QuietSince | undefined): Promise<Settled> {
    const expect = raw ? bindPlaceholders(raw, this.#inputs) : undefined;
    let deadline = performance.now() + this.timeoutMs;
    const wait = this.#startWait();
    const next = disclosureAfter(this.capability, this.#stepIndex, this.#options.effectClass);
    const disclosed = next ? bindPlaceholders(next, this.#inputs) : undefined;
    const bound = (value: Value) => this.value(value);
    let lookedAgain = false;
    let refusalLooked = false;
    // The wait's last look does not wait: each of the others gives the page CHUNK_MS, which a
    // starved renderer can miss every time while what the step expects is there.
    let lastLook = false;
    // The first look went out while the page was watched: it counts only if the page stayed quiet.
    let watched = watch?.settled;
    for (;;) {
      this.assertNothingBlocked();
      const look = lastLook ? () => this.#holdsNow(expect) : () => holds(this.#page, expect, bound);
      // Both only read the page; the classification decides first when it is not ok.
      let [held, state] = await this.#timedLook(wait, () =>
        Promise.all([look(), this.#classifier.classify()]),
      );
      if (watched) {
        const stayedQuiet = await watched;
        watched = undefined;
        if (await watch!.mainAtRest) this.#loadsAtRest = this.#harness.tracker.loads;
        // The page changed while it was looked at: look again, now that it has settled, with the
        // whole wait still ahead (a page that kept changing used up the watch's own).
        if (!stayedQuiet) {
          deadline = performance.now() + this.timeoutMs;
          continue;
        }
      }
      // Looked at only when the control is missing, so a replay that clicks it pays nothing.
      if (held === false && disclosed && state.kind === 'ok' && (await this.#holdsNow(disclosed)) === true) {
        this.#passOver.add(this.#stepIndex + 1);
        return 'ok';
      }
      if (held === false && (await this.#signShown('not_found', this.#stepIndex + 1))) return 'not_found';
      // What the step expected is on the page: a password field or a message there is the page's own.
      const weak = state.kind === 'auth_expired' || state.kind === 'not_found';
      if (weak && held === false && !lookedAgain) {
        // Decide on a settled page: what the step expected may still be on its way.
        lookedAgain = true;
        await this.documentsSettled();
        await this.quiet(undefined);
        continue;
      }
      // A timed look can miss on a busy machine; before a message decides, look without a clock.
      if (weak && held === false) held = await this.#holdsNow(expect);
      const settled = held === true && weak ? 'ok' : await this.#states.answer(state);
      if (settled !== 'ok') return settled;
      const target = expect && 'target' in expect ? expect.target : undefined;
      if (held === 'ambiguous')
        throw await this.#ambiguous(`${describeTarget(target!)} matches more than one element.`, target!);
      if (held) {
        // Navigation events reach us before the answer of a look taken in the new document,
        // so the count read now covers the document the target was seen in.
        // A settle that expected nothing (a wait_for that saw its target) looked at nothing:
        // what the last one saw still stands, until an action or a load.
        if (expect?.kind !== 'none')
          this.#seen =
            expect?.kind === 'visible'
              ? {
                  key: JSON.stringify(expect.target),
                  loads: this.#harness.tracker.loads,
                  actAt: this.#lastActAt,
                }
              : undefined;
        return 'ok';
      }
      if (held === false && !refusalLooked && this.#messagesBeforeWrite) {
        // A write the application refused says so beside its form, once the page has settled.
        refusalLooked = true;
        if (await this.#refused()) return 'rejected';
      }
      const past = this.#pastDeadline(deadline, wait);
      if (past && !lastLook) {
        lastLook = true;
        continue;
      }
      lastLook = false;
      if (past) {
        // What the step expected is the next step's target: judged on the page that step runs on.
        const at = Math.min(this.#stepIndex + 1, this.capability.steps.length - 1);
        const absence = held === false ? await judgeAbsence(this.#page, this.capability, at) : undefined;
        if (absence?.kind === 'record')
          return this.#notFound(`${describeTarget(target!)}: ${absence.detail}`);
        throw await this.#ranOut(
          wait,
          `The page did not reach the expected state (${describePostcondition(expect)}).`,
          target,
          absence?.structural,
        );
      }
    }
  }

  async read(step: Extract<Step, { op: 'read' }>, index: number, text: string): Promise<void> {
    const spec = this.capability.outputs.find((output) => output.name === step.output)!;
    const value = parseTyped(text, spec.type);
    if (value === undefined) {
      throw await this.#surfaceChanged(
        `Step ${index + 1} read ${describeTarget(this.#bind(step.target))}, which does not hold a ${spec.type}.`,
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
  async #refused(): Promise<boolean> {
    await this.documentsSettled();
    await this.quiet(undefined);
    const step = this.capability.steps[this.#stepIndex];
    const message = refusalAmong(this.#messagesBeforeWrite ?? [], await errorMessages(this.#page));
    if (!message || !step || !('target' in step)) return false;
    const form = await probeTarget(this.#page, this.#bind(step.target), { visible: true }).catch(
      () => undefined,
    );
    if (form?.count !== 1 || !form.visible) return false;
    this.rejection = message;
    this.emit('replay-page-classified', { state: 'rejected', detail: 'the application refused the write' });
    return true;
  }

  /** Whether the page shows the outcome's sign after this many steps (one look, only where one was seen). */
  async #signShown(outcome: 'not_found' | 'already_exists', after: number): Promise<boolean> {
    if (!this.#signs.expects(outcome, after)) return false;
    const sign = await this.#signs.shown(outcome, after);
    if (sign)
      this.emit('replay-page-classified', {
        state: outcome,
        detail: `the sign discovery saw after ${after} steps`,
      });
    return sign !== undefined;
  }

  /** An answer of not_found the capability declares, else the NOT_FOUND error. */
  #notFound(detail: string): Settled {
    this.emit('replay-page-classified', { state: 'not_found', detail });
    if (this.capability.outcomes.includes('not_found')) return 'not_found';
    throw new LiftError('NOT_FOUND', `The application has no such record: ${detail}.`, {
      outcome: this.#outcome(),
    });
  }

  /**
   * SURFACE_CHANGED, structural (counting toward switching the capability off) only where no
   * input could explain the difference: a page the inputs shaped may lack a record, not a screen.
   */
  #surfaceChanged(message: string, target: Target | undefined, structural?: boolean): Promise<LiftError> {
    const evidence = { inputs: this.#inputs, screenshot: (label: string) => this.#screenshot(label) };
    const judged = structural ?? !shapedByInputs(this.capability, this.#stepIndex);
    return surfaceChanged(this.#page, evidence, message, target, this.#outcome(), judged);
  }

  #ambiguous(message: string, target: Target): Promise<LiftError> {
    const evidence = { inputs: this.#inputs, screenshot: (label: string) => this.#screenshot(label) };
    return ambiguousTarget(evidence, message, target, this.#outcome());
  }

  #screenshot(label: string): Promise<string | undefined> {
    return evidenceScreenshot(this.#harness, this.#options.evidenceDir, label);
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

  #rememberKeyCell(target: Target, cell: KeyCellLook): void {
    this.#keyCellRead = { target, cell, loads: this.#harness.tracker.loads, actAt: this.#lastActAt };
  }

  /**
   * The key cell a read saw, for a checkpoint target that is that cell: the same table, key
   * and row (the column being the key), with no document loaded and nothing done since.
   */
  #knownCell(target: Target): KeyCellLook | undefined {
    const read = this.#keyCellRead;
    if (!read || read.loads !== this.#harness.tracker.loads || read.actAt !== this.#lastActAt)
      return undefined;
    return isKeyCellOf(target, read.target) ? read.cell : undefined;
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
      (target) => this.#knownCell(target),
      (target) => this.#lookAhead.take(this.#pageStamp(), target, CHECKPOINT_LOOK),
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

/**
 * Whether `asked` is the key cell of the row `read` names: the same table, key and row, the
 * column being the key (a keyed read sees that cell in the same look).
 */
function isKeyCellOf(asked: Target, read: Target): boolean {
  const cell = asked.locator;
  const seen = read.locator;
  if (cell.by !== 'cell' || seen.by !== 'cell' || cell.element || !cell.key) return false;
  return (
    cell.column === cell.key &&
    cell.key === seen.key &&
    cell.row === seen.row &&
    cell.table === seen.table &&
    JSON.stringify([asked.frame, asked.within, asked.nth]) ===
      JSON.stringify([read.frame, read.within, read.nth])
  );
}
