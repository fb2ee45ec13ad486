import type { ErrorCode } from '../../contract/errors.js';
import { type ActionTarget, isRef, type TextValue, type UiAction, type UiActionInput } from './actions.js';
import { type LiveElement, obstruction, resolveElement } from './element.js';
import { describeLocator } from './locator.js';
import { blockedName, clickAllowed } from './policy.js';
import { findPlaceholder, placeholderInputName, type Redactor } from './redact.js';
import { classifyAction, type ElementFacts, type Risk } from './safety.js';
import type { ActEnvironment, StepResult } from './step.js';
import { joinTemplate, storedTemplate, templateParts, withoutReferences } from './value-template.js';

/**
 * The checks an action passes before anything reaches the page: placeholders typed back,
 * the target resolving to exactly one element, the policy, the safety classifier, and
 * whether a pointer would reach the element. A failed check throws a Refusal.
 */
export class Refusal extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Partial<StepResult> = {},
  ) {
    super(message);
  }
}

export function refuse(code: ErrorCode, message: string, extra: Partial<StepResult> = {}): never {
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

export function checkPlaceholders(action: UiAction): void {
  for (const { path, text } of strings(action)) {
    // A template names its inputs on purpose; anything else placeholder-like in it is refused.
    const placeholder = findPlaceholder(path.endsWith('.template') ? withoutReferences(text) : text);
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

/**
 * The text a value types: a literal, a bound input, or a template of both. `input` names the
 * input of a plain reference, `template` is a template's stored form, `shown` what the model
 * may read of it (inputs as placeholders, the rest redacted).
 */
export function textOf(
  value: TextValue,
  redactor: Redactor,
): { text: string; input?: string; template?: string; shown: string } {
  if (typeof value === 'string') return { text: value, shown: redactor.text(value) };
  if ('template' in value) {
    const parsed = templateParts(value.template, (name) => redactor.inputValue(name) !== undefined);
    if ('unknown' in parsed) {
      refuse(
        'BAD_INPUT',
        `The template names '${parsed.unknown}', which is not an input bound to this session.`,
        {
          hint: 'Name the task inputs as {{NAME}}; everything else in a template is typed as written.',
        },
      );
    }
    return {
      text: joinTemplate(parsed.parts, (name) => redactor.inputValue(name) as string),
      template: storedTemplate(parsed.parts),
      shown: `"${joinTemplate(parsed.parts, (name) => `⟦input:${name}⟧`)
        .split(/(⟦input:[A-Za-z0-9_]+⟧)/)
        .map((piece, index) => (index % 2 === 1 ? piece : redactor.text(piece)))
        .join('')}"`,
    };
  }
  const text = redactor.inputValue(value.input);
  if (text === undefined) {
    refuse('BAD_INPUT', `No input named '${value.input}' is bound to this session.`, {
      hint: 'Use the name of one of the task inputs.',
    });
  }
  return { text, input: value.input, shown: `⟦input:${value.input}⟧` };
}

export async function findElement(env: ActEnvironment, target: ActionTarget): Promise<LiveElement> {
  if (isRef(target)) {
    const record = env.refs.get(target.ref);
    if (!record) {
      refuse('BAD_INPUT', `[${target.ref}] is not a ref of the latest observation.`, {
        blockedBy: 'not_found',
        hint: 'Observe again and use a ref from that observation.',
      });
    }
    const found = await resolveElement(env.page, { ref: target.ref, record }, env.deadline - Date.now());
    if (!found.ok) {
      refuse('BAD_INPUT', `[${target.ref}] is no longer on the page (${found.reason}).`, {
        blockedBy: found.count > 1 ? 'ambiguous' : 'not_found',
        hint: 'The page changed since the observation. Observe again.',
      });
    }
    return found.element;
  }
  const found = await resolveElement(env.page, { target }, env.deadline - Date.now());
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

/**
 * Where every action is compiled (discovery), its element must be one a replay finds again:
 * a target that also names other elements of the page would replay on another of them, and
 * an irreversible action on an element picked by its position (the 3rd "Delete") would land
 * on another record once the rows differ. Both are refused before anything reaches the page.
 */
export function checkUnique(env: ActEnvironment, action: UiAction, element: LiveElement): void {
  const what = `${element.role} "${env.redactor.text(element.name)}"`;
  const byRow =
    'Name it by its row, a cell target with the record\'s key: {"locator":{"by":"cell","row":"…","column":"…","element":{"role":"…","name":"…"}}}, or by the container it sits in ("within":{"role":"…","name":"…"}).';
  if (element.notUnique) {
    refuse(
      'BAD_INPUT',
      `${what} cannot be told apart from other elements of the page by any target; an action on it could not be replayed, so nothing was done.`,
      { blockedBy: 'ambiguous', hint: byRow },
    );
  }
  if (element.target.nth !== undefined && classifyAction(action, element).risk === 'high') {
    refuse(
      'BAD_INPUT',
      `${what} is the ${element.target.nth}th of several alike; an action nobody can take back must not pick its element by position, so nothing was done.`,
      { blockedBy: 'ambiguous', hint: byRow },
    );
  }
}

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

export function checkPolicy(env: ActEnvironment, action: UiAction, element: LiveElement | undefined): void {
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

export function checkSafety(env: ActEnvironment, action: UiAction, element: LiveElement | undefined): Risk {
  const facts: ElementFacts | undefined =
    element && action.op === 'press' && element.editable && action.key.endsWith('Enter') && element.submitName
      ? { role: 'button', name: element.submitName, password: element.password === true }
      : element;
  const { risk, reason } = classifyAction(action, facts);
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
export async function checkReachable(env: ActEnvironment, element: LiveElement): Promise<void> {
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
