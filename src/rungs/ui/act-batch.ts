import type { UiAction } from './actions.js';
import type { StepResult } from './step.js';

/**
 * Runs a batch of actions in order. After the first step that `stops` the batch, the rest
 * are `skipped`: they were planned on an assumption that no longer holds. Each caller (the
 * UI tools, discovery) says which steps stop a batch; everything else is the same.
 */
export async function runBatch(
  actions: readonly UiAction[],
  perform: (action: UiAction, index: number) => Promise<StepResult>,
  stops: (step: StepResult) => boolean,
): Promise<StepResult[]> {
  const steps: StepResult[] = [];
  let stopped = false;
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
    const step = await perform(action, index);
    steps.push(step);
    stopped = stops(step);
  }
  return steps;
}

/** The event a step leaves in the run log (redacted already: it is built from the step). */
export function stepEvent(step: StepResult): { type: string; [key: string]: unknown } {
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
