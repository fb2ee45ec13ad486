import { ACTION_HANDLERS, type ActionContext } from './action-handlers.js';
import { isRef, type UiAction } from './actions.js';
import {
  checkPlaceholders,
  checkPolicy,
  checkSafety,
  checkUnique,
  findElement,
  Refusal,
  refuse,
} from './checks.js';
import { type LiveElement, refreshRefs } from './element.js';
import type { ActEnvironment, StepResult } from './step.js';

export type { ActEnvironment, BlockedBy, Effect, StepResult, StepStatus } from './step.js';

function elementSummary(
  element: LiveElement,
  env: ActEnvironment,
  ref?: string,
): NonNullable<StepResult['element']> {
  const locator = element.target.locator;
  // A cell's name is its content: hidden columns stay hidden here too.
  const name =
    locator.by === 'cell' && !locator.element
      ? env.redactor.cell(locator.column, element.name)
      : env.redactor.text(element.name);
  return { role: element.role, name, ...(ref ? { ref } : {}) };
}

/**
 * The checks every action passes (no dialog in the way, placeholders, its element found and
 * unique, policy, safety), then the handler of its kind.
 */
async function run(env: ActEnvironment, action: UiAction, step: StepResult): Promise<Partial<StepResult>> {
  checkPlaceholders(action);
  const pending = env.dialog() ?? env.fileChooser();
  if (pending && action.op !== 'dialog') {
    const dialog = env.dialog();
    refuse(
      'PROMPT_UNEXPECTED',
      dialog
        ? `A ${dialog.type()} dialog is open ("${env.redactor.text(dialog.message())}"); nothing else can happen until it is handled.`
        : 'A file chooser is open; nothing else can happen until it is handled.',
      {
        blockedBy: 'dialog',
        hint: 'Act with {"op": "dialog", "response": "accept"} or {"op": "dialog", "response": "dismiss"}.',
        example: { op: 'dialog', response: 'dismiss' },
      },
    );
  }
  const target = 'target' in action ? action.target : undefined;
  const element = target ? await findElement(env, target) : undefined;
  if (element) {
    step.element = elementSummary(element, env, target && isRef(target) ? target.ref : undefined);
    step.resolved = { target: element.target, ...(element.notUnique ? { notUnique: true as const } : {}) };
    if (env.uniqueTargets) checkUnique(env, action, element);
  }
  checkPolicy(env, action, element);
  step.risk = checkSafety(env, action, element);
  const refBased = element?.refBased === true;
  if (refBased) await refreshRefs(env.page, env.deadline - Date.now());
  return handle(action.op, action, { env, step, element, refBased });
}

/**
 * The action's own handler: ACTION_HANDLERS indexed by the action's kind, so each handler
 * takes exactly its own kind of action.
 */
function handle<Op extends UiAction['op']>(
  op: Op,
  action: Extract<UiAction, { op: Op }>,
  context: ActionContext,
): Promise<Partial<StepResult>> {
  return ACTION_HANDLERS[op](action, context);
}

/** Runs one action through the placeholder, policy, safety and reachability checks, then act-and-verify. */
export async function performAction(
  env: ActEnvironment,
  action: UiAction,
  index: number,
): Promise<StepResult> {
  const started = Date.now();
  const step: StepResult = { index, op: action.op, status: 'executed', message: '', durationMs: 0 };
  try {
    Object.assign(step, await run(env, action, step));
  } catch (error) {
    if (error instanceof Refusal) {
      Object.assign(step, { status: 'rejected', code: error.code, message: error.message }, error.extra);
    } else if (env.page.isClosed()) {
      throw error;
    } else {
      const first = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
      // Once the checks passed the browser may have received the action: it counts as executed.
      const performed = step.risk !== undefined;
      Object.assign(step, {
        status: performed ? 'executed' : 'rejected',
        code: performed ? 'UNEXPECTED_STATE' : 'BAD_INPUT',
        message: env.redactor.text(`The browser reported: ${first}`),
        hint: performed
          ? 'The action may have reached the page; it is not repeated. Observe before acting again.'
          : 'Observe again and retry with a ref from the new observation.',
        ...(performed ? { effect: 'unexpected', uncertain: true } : {}),
      });
    }
  }
  step.durationMs = Date.now() - started;
  return step;
}
