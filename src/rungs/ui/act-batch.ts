import type { ToolEvent } from '../../contract/context.js';
import type { UiAction } from './actions.js';
import type { StepResult } from './step.js';

/** Actions that only look: nothing they do sets the page to work. */
const LOOKS_ONLY = new Set<UiAction['op']>(['read', 'wait_for']);

/**
 * Runs a batch of actions in order. After the first step that `stops` the batch, the rest
 * are `skipped`: they were planned on an assumption that no longer holds. Before each step
 * after one that acted, `settle` waits out the work that step set off (from when it began),
 * as replay does: the next step is planned on the page after it, not during it. Each caller
 * (the UI tools, discovery) says which steps stop a batch; everything else is the same.
 */
export async function runBatch(
  actions: readonly UiAction[],
  perform: (action: UiAction, index: number) => Promise<StepResult>,
  stops: (step: StepResult) => boolean,
  settle: (since: number) => Promise<void>,
): Promise<StepResult[]> {
  const steps: StepResult[] = [];
  let stopped = false;
  let actedAt: number | undefined;
  for (const [index, action] of actions.entries()) {
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
    if (actedAt !== undefined) await settle(actedAt);
    const startedAt = Date.now();
    const step = await perform(action, index);
    steps.push(step);
    stopped = stops(step);
    actedAt = step.status === 'executed' && !LOOKS_ONLY.has(action.op) ? startedAt : undefined;
  }
  return steps;
}

/** The event a step leaves in the run log (redacted already: it is built from the step). */
export function stepEvent(step: StepResult): ToolEvent {
  return {
    type: step.status === 'rejected' ? 'ui-action-rejected' : 'ui-action-executed',
    index: step.index,
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
  };
}
