import type { Verify } from './actions.js';
import { findElement, textOf } from './checks.js';
import { type LiveElement, refreshRefs } from './element.js';
import { readText, readValue } from './field-value.js';
import type { Redactor } from './redact.js';
import { pageFingerprint, type SettleOutcome, waitForSettle } from './settle.js';
import type { ActEnvironment, StepResult } from './step.js';

async function readVerify(env: ActEnvironment, verify: Verify): Promise<string | undefined> {
  try {
    const element = await findElement(env, verify.target);
    return await currentValue(element);
  } catch {
    return undefined;
  }
}

export async function currentValue(element: LiveElement): Promise<string> {
  // A select reads as its chosen option's label, as replay reads it (readValue).
  if (element.editable) return (await readValue(element.locator, element.target, 1_000, 'field')).text;
  if (element.role === 'checkbox' || element.role === 'radio' || element.role === 'switch') {
    return String(await element.locator.isChecked({ timeout: 1_000 }));
  }
  // biome-ignore lint/performance/useDomNodeTextContent: a read returns the text a person sees, not hidden text.
  return readText(element.target, await element.locator.innerText({ timeout: 1_000 }));
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
export async function performAndVerify(
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
  if (refBased) await refreshRefs(env.page, env.deadline - Date.now());
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
      message: `The page tried to load ${env.redactor.text(blocked[0]?.url ?? '')}, which the policy does not allow (${env.redactor.text(blocked[0]?.reason ?? '')}); the request was stopped before it was sent.`,
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
  if (state === 'auth_required') {
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
