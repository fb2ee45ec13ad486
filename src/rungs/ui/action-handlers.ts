import { isCaretKey, isRef, type UiAction } from './actions.js';
import { withTableRecorded } from './cell-table.js';
import { checkReachable, refuse, textOf } from './checks.js';
import type { LiveElement } from './element.js';
import { frameFor } from './frame-by-title.js';
import { checkUrl } from './policy.js';
import { namesByContent, structuralReadTarget } from './read-target.js';
import type { ActEnvironment, StepResult } from './step.js';
import { currentValue, performAndVerify } from './verify.js';
import { pressCaretKey, writeField } from './write-field.js';

/** What the shared checks (act.ts) hand an action's handler once they passed. */
export interface ActionContext {
  env: ActEnvironment;
  /** The step being reported: a handler records what it resolved (a URL, a read's target) on it. */
  step: StepResult;
  /** The element the action's target names; undefined for an action that names none. */
  element: LiveElement | undefined;
  /** The element came by a ref of the latest observation (its refs were refreshed for the action). */
  refBased: boolean;
}

type Handler<A extends UiAction> = (action: A, context: ActionContext) => Promise<Partial<StepResult>>;

type Handlers = { [Op in UiAction['op']]: Handler<Extract<UiAction, { op: Op }>> };

/**
 * A handler for an action whose target is required: the shared checks found its element
 * (findElement answers one for every target, or refuses the action before it gets here).
 */
function onElement<A extends Extract<UiAction, { target: unknown }>>(
  handle: (action: A, element: LiveElement, context: ActionContext) => Promise<Partial<StepResult>>,
): Handler<A> {
  return async (action, context) => {
    if (!context.element) throw new Error(`A ${action.op} reached its handler without its element.`);
    return handle(action, context.element, context);
  };
}

const writeTheField = onElement<Extract<UiAction, { op: 'fill' | 'type' | 'select' }>>(
  (action, field, { env, step }) => writeField(env, action, field, step),
);

/**
 * One handler per kind of action: the closed union of actions.ts, so the compiler checks that
 * every kind has one, as replay's STEP_HANDLERS does for recorded steps.
 */
export const ACTION_HANDLERS: Handlers = {
  click: onElement(async (action, clickable, { env, refBased }) => {
    await checkReachable(env, clickable);
    return performAndVerify(
      env,
      () => clickable.locator.click({ timeout: Math.max(500, env.deadline - Date.now()) }),
      action.verify,
      refBased,
    );
  }),
  press: async (action, { env, element, refBased }) => {
    // A caret key in a field moves the caret only: judged by where it went.
    if (element?.editable && isCaretKey(action.key)) return pressCaretKey(env, element, action.key);
    if (!element && ['Enter', 'Space'].includes(action.key.split('+').pop() ?? '')) {
      refuse('BAD_INPUT', `${action.key} activates whatever has focus; name the element it is meant for.`, {
        hint: 'Give a target: {"op": "press", "key": "Enter", "target": {"ref": "..."}}.',
      });
    }
    const press = element
      ? () => element.locator.press(action.key, { timeout: Math.max(500, env.deadline - Date.now()) })
      : () => env.page.keyboard.press(action.key);
    return performAndVerify(env, press, action.verify, refBased);
  },
  fill: writeTheField,
  type: writeTheField,
  select: writeTheField,
  check: onElement(async (action, box, { env }) => {
    await checkReachable(env, box);
    const before = await box.locator.isChecked();
    await box.locator.setChecked(action.checked, { timeout: Math.max(500, env.deadline - Date.now()) });
    const after = await box.locator.isChecked();
    if (after !== action.checked)
      return {
        effect: 'unexpected',
        code: 'UNEXPECTED_STATE',
        message: 'The box did not take the state asked for.',
      };
    return {
      effect: before === after ? 'no_change' : 'changed',
      message: `It is ${after ? 'checked' : 'unchecked'}.`,
    };
  }),
  navigate: (action, context) => load(action, context),
  reload: (action, context) => load(action, context),
  wait_for: async (action, { env, element }) => {
    const timeout = Math.min(action.timeoutMs, Math.max(0, env.deadline - Date.now()));
    const locator = element?.locator ?? (action.text ? env.page.getByText(action.text) : undefined);
    if (!locator)
      refuse('BAD_INPUT', 'wait_for needs a target or a text.', {
        example: { op: 'wait_for', text: 'Saved' },
      });
    try {
      await locator.first().waitFor({ state: action.state, timeout });
      return { effect: 'none', message: `It is ${action.state}.` };
    } catch {
      return {
        effect: 'no_change',
        code: 'TIMEOUT',
        message: `It was not ${action.state} within ${timeout} ms.`,
      };
    }
  },
  read: onElement(async (action, element, { env, step }) => {
    const { target } = action;
    const value = await currentValue(element);
    env.reads[action.as] = value;
    // What a read stores must find the same place on another record, not this record's text.
    if (step.resolved?.target && namesByContent(step.resolved.target, value, env.redactor)) {
      const record = isRef(target) ? env.refs.get(target.ref) : undefined;
      const structural = await structuralReadTarget(env.page, element, record, value, env.redactor);
      if (structural) step.resolved = { target: structural };
    }
    // A cell read says which table it reads, so a replay never answers from another one.
    if (step.resolved?.target)
      step.resolved = {
        ...step.resolved,
        target: await withTableRecorded(env.page, step.resolved.target, element.locator),
      };
    return {
      effect: 'none',
      message: `Read ${action.as} (${value.length} characters); the value goes to the task, not here.`,
    };
  }),
  dialog: async (action, { env }) => {
    const dialog = env.dialog();
    const chooser = env.fileChooser();
    if (!dialog && !chooser) refuse('BAD_INPUT', 'No dialog is open.', { hint: 'Observe the page.' });
    return performAndVerify(
      env,
      async () => {
        env.clearBlocking();
        if (dialog) {
          if (action.response === 'accept') {
            await dialog.accept(
              action.text === undefined ? undefined : textOf(action.text, env.redactor).text,
            );
          } else await dialog.dismiss();
        } else if (chooser) await chooser.setFiles([]);
      },
      undefined,
      false,
      'a dialog was open',
    );
  },
};

/** A navigate or reload: the frame it names loads the URL (its own, for a reload) the policy allows. */
async function load(
  action: Extract<UiAction, { op: 'navigate' | 'reload' }>,
  { env, step }: ActionContext,
): Promise<Partial<StepResult>> {
  const frame = await frameFor(env, action.frame);
  if (!frame)
    refuse('BAD_INPUT', `No frame ${JSON.stringify(action.frame)} on the page.`, {
      hint: 'Use a frame title from the observation.',
    });
  const url = action.op === 'reload' ? frame.url() : new URL(action.url, frame.url()).toString();
  const verdict = checkUrl(env.policy, url, true);
  if (!verdict.allowed) {
    refuse('POLICY_BLOCKED', `Navigation refused: ${verdict.reason}. Nothing was sent.`, {
      blockedBy: 'policy',
      hint: `Allowed origins: ${env.policy.origins.join(', ')}.`,
    });
  }
  step.resolved = { ...step.resolved, url };
  const go =
    frame === env.page.mainFrame() && action.op === 'reload'
      ? () => env.page.reload({ timeout: Math.max(500, env.deadline - Date.now()) })
      : () => frame.goto(url, { timeout: Math.max(500, env.deadline - Date.now()) });
  const result = await performAndVerify(env, go, undefined);
  // A reload that shows the same page again is still the load that was asked for.
  if (result.code === 'NO_CHANGE')
    return { effect: 'no_change', message: 'The page loaded again and looks the same.' };
  return result;
}
