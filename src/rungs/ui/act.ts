import type { Dialog, FileChooser, Page } from 'playwright-core';
import type { ErrorCode } from '../../contract/errors.js';
import {
  type ActionTarget,
  isRef,
  type TextValue,
  type UiAction,
  type UiActionInput,
  type Verify,
} from './actions.js';
import { type LiveElement, obstruction, refreshRefs, resolveElement } from './element.js';
import { describeLocator, type FramePath, type Target } from './locator.js';
import type { PageState } from './observe.js';
import { blockedName, checkUrl, clickAllowed, type UiPolicy } from './policy.js';
import { findPlaceholder, placeholderInputName, type Redactor } from './redact.js';
import type { ElementRecord } from './render.js';
import { classifyAction, type ElementFacts, type Risk } from './safety.js';
import { type ActivityTracker, pageFingerprint, type SettleOutcome, waitForSettle } from './settle.js';

export type StepStatus = 'executed' | 'rejected' | 'skipped';
/**
 * changed     the page (or the named state) changed and held still
 * no_change   nothing changed; `blockedBy` says what appears to block the action
 * unexpected  something changed, but not into the expected state (UNEXPECTED_STATE)
 * none        the action only reads (read, wait_for)
 */
export type Effect = 'changed' | 'no_change' | 'unexpected' | 'none';
export type BlockedBy =
  | 'disabled'
  | 'covered'
  | 'off_screen'
  | 'hidden'
  | 'dialog'
  | 'policy'
  | 'safety'
  | 'not_found'
  | 'ambiguous';

export interface StepResult {
  index: number;
  op: UiAction['op'];
  status: StepStatus;
  effect?: Effect;
  code?: ErrorCode;
  /** What happened, for the model (redacted). */
  message: string;
  hint?: string;
  /** A corrected call the model can copy. */
  example?: UiActionInput;
  risk?: Risk;
  blockedBy?: BlockedBy;
  /** The action was performed but its effect could not be confirmed; it is never repeated. */
  uncertain?: true;
  /** The element acted on, as the model may see it (redacted). */
  element?: { role: string; name: string; ref?: string };
  /**
   * For the caller's code (compiler, replay), never for a model: the semantic target the
   * action resolved to, with raw values, and the input a value came from.
   */
  resolved?: { target?: Target; input?: string; url?: string };
  durationMs: number;
}

/** What `act` needs from its session. */
export interface ActEnvironment {
  page: Page;
  policy: UiPolicy;
  redactor: Redactor;
  attended: boolean;
  /** Refs of the latest observation. */
  refs: Map<string, ElementRecord>;
  dialog(): Dialog | undefined;
  fileChooser(): FileChooser | undefined;
  clearBlocking(): void;
  activity: ActivityTracker;
  /** Requests the policy stopped since the given time. */
  blockedSince(time: number): Array<{ url: string; reason: string }>;
  /** The current page state, cheaply (dialog, sign-in form, 5xx). */
  state(): Promise<PageState>;
  /** HTTP status of a 5xx frame load since the given time, if any. */
  serverErrorSince(time: number): number | undefined;
  /** Absolute deadline of this action. */
  deadline: number;
  /** How long "nothing happened" must hold before it is concluded. */
  quietMs: number;
  /** True only while the session types its own credential. */
  signIn: boolean;
  /** Values the read actions produced, raw. */
  reads: Record<string, string>;
}

class Refusal extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Partial<StepResult> = {},
  ) {
    super(message);
  }
}

function refuse(code: ErrorCode, message: string, extra: Partial<StepResult> = {}): never {
  throw new Refusal(code, message, extra);
}

/** Every string the model sent in an action, to look for placeholders typed back. */
function strings(value: unknown, path = ''): Array<{ path: string; text: string }> {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => strings(item, `${path}[${index}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => strings(item, path ? `${path}.${key}` : key));
  }
  return [];
}

function checkPlaceholders(action: UiAction): void {
  for (const { path, text } of strings(action)) {
    const placeholder = findPlaceholder(text);
    if (!placeholder) continue;
    const input = placeholderInputName(placeholder);
    const isValue =
      path === 'value' || path === 'text' || path.endsWith('.equals') || path.endsWith('.contains');
    if (input && isValue) {
      refuse(
        'BAD_INPUT',
        `${placeholder} is a placeholder, not text: typing it would enter the placeholder itself.`,
        {
          hint: `Refer to the bound value by name: "${path}": {"input": "${input}"}.`,
          example: {
            ...(action as UiActionInput),
            [path.split('.')[0] as string]: { input },
          } as UiActionInput,
        },
      );
    }
    refuse(
      'BAD_INPUT',
      `${placeholder} is a placeholder, not text on the page, so nothing matches it (field ${path}).`,
      {
        hint: input
          ? `Target the element by its [ref] from the observation; bound values are referred to as {"input": "${input}"} only in a value.`
          : 'Hidden and secret values cannot be targeted or typed. Target the element by its [ref] from the observation.',
      },
    );
  }
}

function textOf(value: TextValue, redactor: Redactor): { text: string; input?: string } {
  if (typeof value === 'string') return { text: value };
  const text = redactor.inputValue(value.input);
  if (text === undefined) {
    refuse('BAD_INPUT', `No input named '${value.input}' is bound to this session.`, {
      hint: 'Use the name of one of the task inputs.',
    });
  }
  return { text, input: value.input };
}

async function findElement(env: ActEnvironment, target: ActionTarget): Promise<LiveElement> {
  if (isRef(target)) {
    const record = env.refs.get(target.ref);
    if (!record) {
      refuse('BAD_INPUT', `[${target.ref}] is not a ref of the latest observation.`, {
        blockedBy: 'not_found',
        hint: 'Observe again and use a ref from that observation.',
      });
    }
    const found = await resolveElement(env.page, { ref: target.ref, record });
    if (!found.ok) {
      refuse('BAD_INPUT', `[${target.ref}] is no longer on the page (${found.reason}).`, {
        blockedBy: found.count > 1 ? 'ambiguous' : 'not_found',
        hint: 'The page changed since the observation. Observe again.',
      });
    }
    return found.element;
  }
  const found = await resolveElement(env.page, { target });
  if (!found.ok) {
    refuse(
      'BAD_INPUT',
      `The target ${env.redactor.text(describeLocator(target.locator))} did not resolve: ${found.reason}.`,
      {
        blockedBy: found.count > 1 ? 'ambiguous' : 'not_found',
        hint:
          found.count > 1
            ? 'Use the [ref] from the observation, or a table cell locator with a row value.'
            : 'Observe again; use a [ref] or a role and name exactly as shown.',
      },
    );
  }
  return found.element;
}

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
function activatedName(action: UiAction, element: LiveElement): string | undefined {
  if (action.op === 'click') return element.name;
  if (action.op === 'press') {
    const key = action.key.split('+').pop();
    if (key === 'Enter' && element.editable) return element.submitName;
    if (key === 'Enter' || key === 'Space') return element.name;
  }
  if (action.op === 'check') return element.name;
  return undefined;
}

function checkPolicy(env: ActEnvironment, action: UiAction, element: LiveElement | undefined): void {
  if (!env.policy.actions.includes(action.op)) {
    refuse('POLICY_BLOCKED', `The policy does not allow '${action.op}' actions.`, {
      blockedBy: 'policy',
      hint: `Allowed actions: ${env.policy.actions.join(', ')}.`,
    });
  }
  if (!element) return;
  const name = activatedName(action, element);
  if (name === undefined) return;
  const blocked = blockedName(env.policy, name);
  if (blocked) {
    refuse(
      'POLICY_BLOCKED',
      `"${env.redactor.text(name)}" is blocked by the policy (${blocked}); nothing was sent.`,
      {
        blockedBy: 'policy',
        hint: 'This operation is never performed by an agent. Continue with the task, or request a handoff to a person.',
      },
    );
  }
  if ((action.op === 'click' || action.op === 'press') && !clickAllowed(env.policy, name)) {
    refuse('POLICY_BLOCKED', `"${env.redactor.text(name)}" is not in the policy's allowed click names.`, {
      blockedBy: 'policy',
      hint: `Allowed click names: ${(env.policy.clickNames ?? []).join(', ')}.`,
    });
  }
}

function checkSafety(env: ActEnvironment, action: UiAction, element: LiveElement | undefined): Risk {
  const facts: ElementFacts | undefined =
    element && action.op === 'press' && element.editable && action.key.endsWith('Enter') && element.submitName
      ? { role: 'button', name: element.submitName, password: element.password === true }
      : element;
  const { risk, reason } = classifyAction(action, facts, { signIn: env.signIn });
  if (risk === 'block') {
    refuse('SAFETY_BLOCKED', `Refused: ${reason}.`, {
      risk,
      blockedBy: 'safety',
      hint: element?.password
        ? 'Credentials come from the secret store through the session sign-in, never from the model.'
        : 'Choose another action.',
    });
  }
  if (risk === 'high' && !env.attended) {
    refuse('SAFETY_BLOCKED', `Refused in an unattended run: ${reason}.`, {
      risk,
      blockedBy: 'safety',
      hint: 'High-risk actions need a person present: request a handoff.',
    });
  }
  return risk;
}

/** Refuses a pointer action that would not reach its element, before anything is sent. */
async function checkReachable(env: ActEnvironment, element: LiveElement): Promise<void> {
  if (element.disabled) {
    refuse(
      'NO_CHANGE',
      `${element.role} "${env.redactor.text(element.name)}" is disabled; clicking it would do nothing.`,
      {
        effect: 'no_change',
        blockedBy: 'disabled',
        hint: 'Find what enables it (a required field, a selection) or observe again.',
      },
    );
  }
  const blocked = await obstruction(element.locator);
  if (blocked) {
    refuse(
      'NO_CHANGE',
      `${element.role} "${env.redactor.text(element.name)}" cannot be reached: ${blocked.detail}.`,
      {
        effect: 'no_change',
        blockedBy: blocked.kind,
        hint:
          blocked.kind === 'covered'
            ? 'Something covers the page (an overlay or a pending dialog). Observe, wait for it to go, or request a handoff.'
            : 'Scroll or open the section that shows it, then observe again.',
      },
    );
  }
}

async function readVerify(env: ActEnvironment, verify: Verify): Promise<string | undefined> {
  try {
    const element = await findElement(env, verify.target);
    return await currentValue(element);
  } catch {
    return undefined;
  }
}

async function currentValue(element: LiveElement): Promise<string> {
  if (element.editable) return element.locator.inputValue({ timeout: 1_000 });
  if (element.role === 'checkbox' || element.role === 'radio' || element.role === 'switch') {
    return String(await element.locator.isChecked({ timeout: 1_000 }));
  }
  // biome-ignore lint/performance/useDomNodeTextContent: a read returns the text a person sees, not hidden text.
  return (await element.locator.innerText({ timeout: 1_000 })).replace(/\s+/g, ' ').trim();
}

function matches(verify: Verify, value: string, redactor: Redactor): boolean {
  if (verify.equals !== undefined && value !== textOf(verify.equals, redactor).text) return false;
  if (verify.contains !== undefined && !value.includes(textOf(verify.contains, redactor).text)) return false;
  return verify.equals !== undefined || verify.contains !== undefined;
}

/**
 * Performs a pointer or key action and judges it by reading state before and after:
 * the named state when `verify` is given, else the whole page (every frame's URL and tree).
 */
async function performAndVerify(
  env: ActEnvironment,
  perform: () => Promise<unknown>,
  verify: Verify | undefined,
  refBased = false,
  knownBefore?: string,
): Promise<Partial<StepResult>> {
  const startedAt = Date.now();
  const read = verify ? () => readVerify(env, verify) : () => pageFingerprint(env.page);
  // While a dialog is open the page runs no script, so its state cannot be read.
  const before = knownBefore ?? (await read());
  // Reading state may have reset the page's aria refs; a ref-based target needs them now.
  if (refBased) await refreshRefs(env.page);
  const dialogOpened = (): boolean => env.dialog() !== undefined || env.fileChooser() !== undefined;
  let performError: unknown;
  // The dialog promise lets a click that opened a modal dialog finish instead of waiting on it.
  await Promise.race([
    perform().catch((error: unknown) => {
      performError = error;
    }),
    new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (dialogOpened()) {
          clearInterval(check);
          resolve();
        }
      }, 25);
      setTimeout(
        () => {
          clearInterval(check);
          resolve();
        },
        Math.max(0, env.deadline - Date.now()),
      );
    }),
  ]);
  const outcome: SettleOutcome = dialogOpened()
    ? { kind: 'interrupted' }
    : await waitForSettle(before, {
        deadline: env.deadline,
        quietMs: env.quietMs,
        read,
        interrupted: dialogOpened,
        activity: env.activity,
        startedAt,
        ...(verify ? { expected: (state: string) => matches(verify, state, env.redactor) } : {}),
      });
  const blocked = env.blockedSince(startedAt);
  if (blocked.length > 0) {
    return {
      effect: 'unexpected',
      code: 'POLICY_BLOCKED',
      blockedBy: 'policy',
      message: `The page tried to load ${env.redactor.text(blocked[0]?.url ?? '')}, which the policy does not allow (${blocked[0]?.reason}); the request was stopped before it was sent.`,
      hint: 'Observe the page; go back to an allowed page with navigate.',
    };
  }
  if (outcome.kind === 'interrupted') {
    const dialog = env.dialog();
    return {
      effect: 'changed',
      message: dialog
        ? `The page opened a ${dialog.type()} dialog: "${env.redactor.text(dialog.message())}". It blocks every other action until handled.`
        : 'The page opened a file chooser. It blocks every other action until handled.',
      hint: 'Act with {"op": "dialog", "response": "accept"} or {"op": "dialog", "response": "dismiss"}.',
    };
  }
  const serverError = env.serverErrorSince(startedAt);
  const state = await env.state();
  if (state === 'auth_required' && !env.signIn) {
    return {
      effect: 'unexpected',
      code: 'AUTH_REQUIRED',
      message: 'The page now asks for a sign-in: the session expired.',
      hint: 'Request a handoff (or sign the session in again); the model cannot supply credentials.',
    };
  }
  if (serverError !== undefined) {
    return {
      effect: 'unexpected',
      code: serverError === 503 ? 'UPSTREAM_ERROR' : 'APP_ERROR',
      message: `The page answered HTTP ${serverError}.`,
      hint:
        serverError === 503
          ? 'A reload may heal it: {"op": "reload"}.'
          : 'The application failed; request a handoff.',
    };
  }
  if (outcome.kind === 'timeout') {
    return {
      effect: 'no_change',
      code: 'TIMEOUT',
      uncertain: true,
      message: 'The action was sent, but the page had not settled when its deadline passed.',
      hint: 'The action counts as executed and is not repeated. Observe before acting again.',
    };
  }
  if (outcome.kind === 'unchanged') {
    return {
      effect: 'no_change',
      code: 'NO_CHANGE',
      ...(performError ? { uncertain: true as const } : {}),
      message: performError
        ? `The action may not have reached the page (${(performError as Error).message.split('\n')[0]}); nothing changed.`
        : verify
          ? 'The action was performed, but the named state did not change.'
          : 'The action was performed, but the page did not change.',
      hint: 'It counts as executed and is not repeated. Observe to see what blocks it, or request a handoff.',
    };
  }
  if (verify && !matches(verify, outcome.state, env.redactor)) {
    const hasExpectation = verify.equals !== undefined || verify.contains !== undefined;
    if (hasExpectation) {
      return {
        effect: 'unexpected',
        code: 'UNEXPECTED_STATE',
        message: `The named state changed to "${env.redactor.text(outcome.state).slice(0, 120)}", not to the expected value.`,
        hint: 'Observe again before the next action.',
      };
    }
  }
  return {
    effect: 'changed',
    message: outcome.settled
      ? 'The page changed.'
      : 'The page changed and was still changing at the deadline.',
    ...(outcome.settled ? {} : { uncertain: true as const }),
  };
}

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

async function frameFor(page: Page, path: FramePath | undefined) {
  if (!path?.length) return page.mainFrame();
  const byName = frameScope(page, path);
  if (byName) return byName;
  // Frames are named by their title in targets; find the iframe element with that title.
  let scope = page.mainFrame();
  for (const title of path) {
    const handle = await scope
      .locator(`iframe[title=${JSON.stringify(title)}], iframe[name=${JSON.stringify(title)}]`)
      .elementHandle({ timeout: 1_000 })
      .catch(() => null);
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
    step.resolved = { target: element.target };
  }
  checkPolicy(env, action, element);
  step.risk = checkSafety(env, action, element);
  const refBased = element?.refBased === true;
  if (refBased) await refreshRefs(env.page);

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
    case 'select': {
      const field = element as LiveElement;
      const { text, input } = textOf(action.value, env.redactor);
      if (input) step.resolved = { ...step.resolved, input };
      if (field.disabled) {
        refuse('NO_CHANGE', `The field "${env.redactor.text(field.name)}" is disabled.`, {
          effect: 'no_change',
          blockedBy: 'disabled',
        });
      }
      const before = await field.locator.inputValue({ timeout: 1_000 }).catch(() => '');
      if (action.op === 'fill')
        await field.locator.fill(text, { timeout: Math.max(500, env.deadline - Date.now()) });
      else
        await field.locator
          .selectOption({ label: text }, { timeout: 2_000 })
          .catch(() => field.locator.selectOption(text, { timeout: 2_000 }));
      const after = await field.locator.inputValue({ timeout: 1_000 }).catch(() => '');
      const shown = input ? `⟦input:${input}⟧` : env.redactor.text(text);
      if (action.op === 'fill' && after !== text) {
        return {
          effect: 'unexpected',
          code: 'UNEXPECTED_STATE',
          message: `The field holds "${env.redactor.text(after)}" instead of ${shown}.`,
        };
      }
      return before === after
        ? { effect: 'no_change', message: `The field already held ${shown}.` }
        : { effect: 'changed', message: `The field now holds ${shown}.` };
    }
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
      const frame = await frameFor(env.page, action.frame);
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
