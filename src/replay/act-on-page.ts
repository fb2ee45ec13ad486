import type { Step } from '../capability/capability.js';
import { LiftError } from '../contract/errors.js';
import type { RunEventType } from '../contract/events.js';
import type { Target } from '../rungs/ui/locator.js';
import type { Failures } from './failures.js';
import { blockedReason, describeTarget, isStrictViolation, slowPageAt } from './targets.js';

/** Steps whose action, done twice, leaves the page as done once: a field's value, a box, an option. */
const SETS_A_STATE: ReadonlySet<Step['op']> = new Set(['fill', 'type', 'select', 'check']);

/** What performing a step's action uses of the replay. */
export interface ActionContext {
  failures: Failures;
  /** The step's clock, and the navigation bound a second try on a starved page gets. */
  timeoutMs: number;
  navigationTimeoutMs: number;
  bind(target: Target): Target;
  emit(type: RunEventType, data?: Record<string, unknown>): void;
}

/**
 * Performs the step's action on the page; a failure becomes AMBIGUOUS_TARGET (a strict
 * locator met several), TIMEOUT (a page too slow to take it) or NO_CHANGE (the page blocks it).
 */
export async function performStep(
  context: ActionContext,
  step: Extract<Step, { target: Target }>,
  index: number,
  perform: (timeoutMs: number) => Promise<void>,
): Promise<void> {
  const { failures } = context;
  try {
    await performOnSlowPage(context, step, perform);
  } catch (error) {
    const what = describeTarget(context.bind(step.target));
    if (isStrictViolation(error)) {
      throw await failures.ambiguous(
        `Step ${index + 1}: ${what} matches more than one element.`,
        step.target,
      );
    }
    if (slowPageAt(error)) {
      throw new LiftError(
        'TIMEOUT',
        `Step ${index + 1}: ${what} was there, but the page was too slow to take the ${step.op} (a starved page or machine); it may still land.`,
        { outcome: failures.outcome() },
      );
    }
    const reason = blockedReason(error);
    throw new LiftError('NO_CHANGE', `Step ${index + 1}: ${what} could not be used: ${reason}.`, {
      hint: `Nothing was clicked twice. The page blocks the action (${reason}); a person should look at it before another replay.`,
      outcome: failures.outcome(),
      details: { screenshot: await failures.screenshot('no-change') },
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
async function performOnSlowPage(
  context: ActionContext,
  step: Step,
  perform: (timeoutMs: number) => Promise<void>,
): Promise<void> {
  try {
    await perform(context.timeoutMs);
  } catch (error) {
    const at = slowPageAt(error);
    if (at === undefined) throw error;
    // Text typed at the caret is not a state: typed again, it would be there twice.
    const setsAState = SETS_A_STATE.has(step.op) && !(step.op === 'type' && step.clear === false);
    if (at === 'input_sent' && !setsAState) {
      context.emit('replay-page-classified', {
        state: 'busy',
        detail: "the page was too slow to acknowledge the step's input; its postcondition decides",
      });
      return;
    }
    context.emit('replay-page-classified', {
      state: 'busy',
      detail: "the page was too slow to take the step's action; it goes again with the navigation bound",
    });
    await perform(context.navigationTimeoutMs);
  }
}
