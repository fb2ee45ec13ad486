import type { Page } from 'playwright-core';
import { isCaretKey, isRef, type UiAction } from './actions.js';
import {
  checkPlaceholders,
  checkPolicy,
  checkReachable,
  checkSafety,
  checkUnique,
  findElement,
  Refusal,
  refuse,
  textOf,
} from './checks.js';
import { type LiveElement, refreshRefs } from './element.js';
import type { FramePath } from './locator.js';
import { PageTracker } from './page-tracker.js';
import { checkUrl } from './policy.js';
import { namesByContent, structuralReadTarget } from './read-target.js';
import { answerWithin } from './settle.js';
import type { ActEnvironment, StepResult } from './step.js';
import { currentValue, performAndVerify } from './verify.js';
import { pressCaretKey, writeField } from './write-field.js';

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

/** The name a click, or an Enter/Space on this element, would activate. */
function frameScope(page: Page, frame: FramePath | undefined) {
  let scope = page.mainFrame();
  for (const title of frame ?? []) {
    const child = scope.childFrames().find((candidate) => candidate.name() === title);
    const byTitle = child ?? undefined;
    if (byTitle) scope = byTitle;
    else return undefined;
  }
  return scope;
}

/** How long a frame is looked for when no document is on its way: a wrong name answers soon. */
const FRAME_LOOKUP_MS = 1_000;

async function frameFor(env: ActEnvironment, path: FramePath | undefined) {
  const { page } = env;
  if (!path?.length) return page.mainFrame();
  const found = frameScope(page, path) ?? (await frameByTitle(page, path, FRAME_LOOKUP_MS, env.deadline));
  if (found) return found;
  // The page holding the frame may still be coming (a sign-in's redirect to the app's shell on
  // a loaded machine): while a document is in flight or just came, it is looked for on the page that lands.
  const arrived = await PageTracker.of(page).documentArrived(FRAME_LOOKUP_MS, env.deadline - Date.now());
  return arrived ? frameByTitle(page, path, FRAME_LOOKUP_MS, env.deadline) : undefined;
}

/**
 * Frames are named by their title in targets: the iframe element with that title, level by
 * level. A look that misses its clock is asked once more without one (bounded by the step's
 * deadline) before a frame is called missing: a renderer starved on a loaded machine answers
 * late, and its frame is there all the same.
 */
async function frameByTitle(page: Page, path: FramePath, timeoutMs: number, deadline: number) {
  let scope = page.mainFrame();
  for (const title of path) {
    const iframe = scope.locator(
      `iframe[title=${JSON.stringify(title)}], iframe[name=${JSON.stringify(title)}]`,
    );
    let handle = await iframe.elementHandle({ timeout: timeoutMs }).catch(() => null);
    if (!handle && ((await answerWithin(iframe.count(), deadline - Date.now())) ?? 0) > 0) {
      handle = await iframe
        .first()
        .elementHandle({ timeout: Math.max(500, deadline - Date.now()) })
        .catch(() => null);
    }
    const next = await handle?.contentFrame();
    await handle?.dispose();
    if (!next) return undefined;
    scope = next;
  }
  return scope;
}

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
    step.element = elementSummary(
      element,
      env,
      target && isRef(target) ? target.ref : undefined,
    ) as NonNullable<StepResult['element']>;
    step.resolved = { target: element.target, ...(element.notUnique ? { notUnique: true as const } : {}) };
    if (env.uniqueTargets) checkUnique(env, action, element);
  }
  checkPolicy(env, action, element);
  step.risk = checkSafety(env, action, element);
  const refBased = element?.refBased === true;
  if (refBased) await refreshRefs(env.page, env.deadline - Date.now());

  switch (action.op) {
    case 'click': {
      const clickable = element as LiveElement;
      await checkReachable(env, clickable);
      return performAndVerify(
        env,
        () => clickable.locator.click({ timeout: Math.max(500, env.deadline - Date.now()) }),
        action.verify,
        refBased,
      );
    }
    case 'press': {
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
    }
    case 'fill':
    case 'type':
    case 'select':
      return writeField(env, action, element as LiveElement, step);
    case 'check': {
      const box = element as LiveElement;
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
    }
    case 'navigate':
    case 'reload': {
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
    case 'wait_for': {
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
    }
    case 'read': {
      const value = await currentValue(element as LiveElement);
      env.reads[action.as] = value;
      // What a read stores must find the same place on another record, not this record's text.
      if (step.resolved?.target && namesByContent(step.resolved.target, value, env.redactor)) {
        const record = target && isRef(target) ? env.refs.get(target.ref) : undefined;
        const structural = await structuralReadTarget(
          env.page,
          element as LiveElement,
          record,
          value,
          env.redactor,
        );
        if (structural) step.resolved = { target: structural };
      }
      return {
        effect: 'none',
        message: `Read ${action.as} (${value.length} characters); the value goes to the task, not here.`,
      };
    }
    case 'dialog': {
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
    }
  }
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
