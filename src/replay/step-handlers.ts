import type { Locator } from 'playwright-core';
import type { Capability, Postcondition, Step, Value } from '../capability/capability.js';
import { revealForPointer } from '../rungs/ui/element.js';
import {
  type FieldRead,
  fieldGained,
  fieldHolds,
  readField,
  takesLineBreaks,
} from '../rungs/ui/field-value.js';
import type { Target } from '../rungs/ui/locator.js';
import type { QuietSince } from '../rungs/ui/quiet.js';
import { typeKeys } from '../rungs/ui/type-keys.js';
import type { Settled } from './options.js';
import { NOTHING } from './postconditions.js';
import type { Probe } from './targets.js';

/** What every step handler uses of the replay: find the target, act on it, settle, bind values. */
export interface StepRunner {
  readonly capability: Capability;
  /** Bound of each wait of a step. */
  readonly timeoutMs: number;
  /**
   * Finds the target fresh: exactly one match, or SURFACE_CHANGED; while it is absent the
   * page is classified, which may answer not_found or restart instead.
   */
  find(target: Target, index: number, want?: { visible?: boolean; text?: boolean }): Promise<Probe | Settled>;
  /**
   * Performs the step's action on the page within the clock it is given. A step that can
   * change state marks the effect started first (capability/effects.ts); a failure becomes
   * NO_CHANGE, SURFACE_CHANGED, or TIMEOUT on a page too slow to take it.
   */
  act(
    step: Extract<Step, { target: Target }>,
    index: number,
    perform: (timeoutMs: number) => Promise<void>,
  ): Promise<void>;
  /** Loads a page of the capability's origin (the policy checks it first). */
  goto(url: string): Promise<void>;
  /**
   * Waits (bounded) until the page the step caused has settled: its requests answered and its
   * frame unchanged for a quiet period. Cheap when the step caused nothing. `near`: the step's
   * target, whose frame is watched (the main frame without it, or after a document loaded).
   */
  quiet(near: { target: Target; locator: Locator } | undefined): Promise<void>;
  /**
   * Begins quiet()'s wait without waiting for it, watching the frame the step expects something
   * in too: a look sent once this returns goes out while the page settles (settle takes it).
   */
  quietFrom(
    near: { target: Target; locator: Locator } | undefined,
    expect: Postcondition | undefined,
  ): Promise<QuietSince>;
  /** Waits (bounded) until no document load is in flight: a submit's page has arrived. */
  documentsSettled(): Promise<void>;
  /** After a load: the document's own scripts have stopped re-rendering it. */
  scriptsSettled(): Promise<void>;
  /**
   * After a step: the postcondition holds, or the page classification decides. With a watch
   * begun (quietFrom), the first look goes out at once and counts only if the page stayed quiet.
   */
  settle(expect: Postcondition | undefined, watch?: QuietSince): Promise<Settled>;
  /** A value typed into the page: the bound input, or the literal. */
  value(value: Value): string;
  /** Stores a read value as its declared output; SURFACE_CHANGED when it does not hold that type. */
  read(step: Extract<Step, { op: 'read' }>, index: number, text: string): Promise<void>;
}

type Handler<S extends Step> = (runner: StepRunner, step: S, index: number) => Promise<Settled>;

/** One action on the step's target, the same for every kind: find, act, then settle. */
function onTarget<S extends Extract<Step, { target: Target }>>(
  perform: (locator: Locator, step: S, runner: StepRunner, timeoutMs: number) => Promise<void>,
  options: {
    /** A submit loads a document: wait for it before looking for the postcondition. */
    loadsDocuments?: boolean;
    /** The postcondition to settle on, once the action ran (default the step's own). */
    expect?: (locator: Locator, step: S, runner: StepRunner) => Promise<Postcondition | undefined>;
  } = {},
): Handler<S> {
  return async (runner, step, index) => {
    const found = await runner.find(step.target, index);
    if (typeof found === 'string') return found;
    await runner.act(step, index, (timeoutMs) => perform(found.locator, step, runner, timeoutMs));
    if (options.loadsDocuments) await runner.documentsSettled();
    const near = options.loadsDocuments ? undefined : { target: step.target, locator: found.locator };
    // Whatever the action set off (a re-render, a request, a navigation) ends before a look counts.
    if (!options.expect) return runner.settle(step.expect, await runner.quietFrom(near, step.expect));
    // A field's postcondition is read from the field once the page settled.
    await runner.quiet(near);
    return runner.settle(await options.expect(found.locator, step, runner));
  };
}

/** The field just written is the postcondition's usual target: read it where it is. */
async function heldOrExpected(
  locator: Locator,
  step: Extract<Step, { op: 'fill' | 'type' }>,
  runner: StepRunner,
): Promise<Postcondition> {
  const held = await readField(locator, runner.timeoutMs).catch(() => undefined);
  return held && fieldHolds(held, runner.value(step.value)) ? NOTHING : step.expect;
}

/** What a field held before a step typed into it at the caret, for that step's check. */
const heldBefore = new WeakMap<Step, FieldRead>();

/**
 * Typed at the caret, the field must hold what it held with the text added at one place.
 * When it does not yet, the postcondition waited for is the text appended at the end (the
 * usual place, after Control+End), which a slow page may still come to show.
 */
async function gained(
  locator: Locator,
  step: Extract<Step, { op: 'type' }>,
  runner: StepRunner,
): Promise<Postcondition> {
  const before = heldBefore.get(step);
  heldBefore.delete(step);
  const text = runner.value(step.value);
  const held = await readField(locator, runner.timeoutMs).catch(() => undefined);
  if (before && held && fieldGained(before, held, text)) return NOTHING;
  return { kind: 'value', target: step.target, equals: { literal: `${before?.value ?? ''}${text}` } };
}

type Handlers = { [Op in Step['op']]: Handler<Extract<Step, { op: Op }>> };

/**
 * The step handlers, one per kind of recorded step: the closed union of capability.ts, so
 * the compiler checks that every kind has one. Finding, acting and settling are shared.
 */
export const STEP_HANDLERS: Handlers = {
  navigate: async (runner, step) => {
    // Inputs in the path go in URL-encoded: a lookup loads its one document directly.
    const path = step.path.replace(/\{\{input\.([a-zA-Z][a-zA-Z0-9_]*)\}\}/g, (_, name: string) =>
      encodeURIComponent(runner.value({ input: name })),
    );
    await runner.goto(new URL(path, runner.capability.preconditions.origin).href);
    return runner.settle(step.expect, await runner.quietFrom(undefined, step.expect));
  },
  click: onTarget(
    async (locator, _step, _runner, timeout) => {
      await revealForPointer(locator);
      await locator.click({ timeout });
    },
    { loadsDocuments: true },
  ),
  press: onTarget((locator, step, _runner, timeout) => locator.press(step.key, { timeout }), {
    loadsDocuments: true,
  }),
  fill: onTarget((locator, step, runner, timeout) => locator.fill(runner.value(step.value), { timeout }), {
    expect: heldOrExpected,
  }),
  type: onTarget(
    async (locator, step, runner, timeout) => {
      const text = runner.value(step.value);
      // In a one-line field a line break would be Enter and could send the form: nothing is typed.
      if (/[\r\n]/.test(text) && !(await takesLineBreaks(locator, timeout)))
        throw new Error('a typed value holds a line break, which would be Enter in a one-line field');
      if (step.clear !== false) return typeKeys(locator, text, timeout);
      heldBefore.set(step, await readField(locator, timeout));
      await typeKeys(locator, text, timeout, { clear: false });
    },
    {
      expect: (locator, step, runner) =>
        step.clear === false ? gained(locator, step, runner) : heldOrExpected(locator, step, runner),
    },
  ),
  select: onTarget((locator, step, runner, timeout) =>
    locator.selectOption({ label: runner.value(step.value) }, { timeout }).then(() => undefined),
  ),
  check: onTarget((locator, step, _runner, timeout) => locator.setChecked(step.checked, { timeout })),
  wait_for: async (runner, step, index) => {
    const found = await runner.find(step.target, index, { visible: true });
    if (typeof found === 'string') return found;
    return runner.settle(found.visible ? NOTHING : step.expect);
  },
  read: async (runner, step, index) => {
    const found = await runner.find(step.target, index, { text: true });
    if (typeof found === 'string') return found;
    await runner.read(step, index, found.text ?? '');
    return 'ok';
  },
};
