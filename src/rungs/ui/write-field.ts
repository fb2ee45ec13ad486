import type { UiAction } from './actions.js';
import { refuse, textOf } from './checks.js';
import type { LiveElement } from './element.js';
import { type FieldRead, fieldGained, fieldHolds, readField, takesLineBreaks } from './field-value.js';
import type { ActEnvironment, StepResult } from './step.js';
import { typeKeys } from './type-keys.js';

type FieldAction = Extract<UiAction, { op: 'fill' | 'type' | 'select' }>;

/**
 * How long a field is read back: a rich-text editor in an iframe on a loaded machine answers
 * late, and a read that ran out says nothing about what the field holds.
 */
function readMs(env: ActEnvironment): number {
  return Math.max(1_000, Math.min(5_000, env.deadline - Date.now()));
}

/**
 * Fills, types or chooses a value, then reads the field back as a person would: an input's
 * value, an editor's text. Typing without clearing must leave what the field held, with the
 * text added at one place.
 */
export async function writeField(
  env: ActEnvironment,
  action: FieldAction,
  field: LiveElement,
  step: StepResult,
): Promise<Partial<StepResult>> {
  const { text, input, template, shown } = textOf(action.value, env.redactor);
  if (input) step.resolved = { ...step.resolved, input };
  if (template) step.resolved = { ...step.resolved, template };
  if (field.disabled) {
    refuse('NO_CHANGE', `The field "${env.redactor.text(field.name)}" is disabled.`, {
      effect: 'no_change',
      blockedBy: 'disabled',
    });
  }
  const appends = action.op === 'type' && action.clear === false;
  if (action.op === 'type' && /[\r\n]/.test(text) && !(await takesLineBreaks(field.locator, readMs(env)))) {
    // In a one-line field a typed line break is the Enter key, which submits the form.
    refuse(
      'BAD_INPUT',
      'type sends keys: a line break in this one-line field would be Enter and could submit the form.',
      {
        hint: 'Type the text without line breaks; press Enter as its own action when the form is to be sent.',
      },
    );
  }
  const before: FieldRead = await readField(field.locator, 1_000).catch(() => ({ value: '', editor: false }));
  const timeout = Math.max(500, env.deadline - Date.now());
  if (action.op === 'fill') await field.locator.fill(text, { timeout });
  else if (action.op === 'type')
    await typeKeys(field.locator, text, timeout, appends ? { clear: false } : {});
  else
    await field.locator
      .selectOption({ label: text }, { timeout: 2_000 })
      .catch(() => field.locator.selectOption(text, { timeout: 2_000 }));
  const read = await readField(field.locator, readMs(env)).catch(() => undefined);
  if (!read) {
    return {
      effect: 'unexpected',
      code: 'UNEXPECTED_STATE',
      uncertain: true,
      message: `The ${action.op} was sent, but the field could not be read back to see what it holds.`,
      hint: 'Observe the page: the field shows what it holds now.',
    };
  }
  if (appends) {
    if (!fieldGained(before, read, text)) {
      return {
        effect: 'unexpected',
        code: 'UNEXPECTED_STATE',
        message: `The field holds "${env.redactor.text(read.value)}", not what it held with ${shown} typed in at the caret.`,
      };
    }
    return {
      effect: 'changed',
      message: `${shown} was typed in at the caret; the rest of the field is as it was.`,
    };
  }
  if (action.op !== 'select' && !fieldHolds(read, text)) {
    return {
      effect: 'unexpected',
      code: 'UNEXPECTED_STATE',
      message: `The field holds "${env.redactor.text(read.value)}" instead of ${shown}.`,
    };
  }
  return before.value === read.value
    ? { effect: 'no_change', message: `The field already held ${shown}.` }
    : { effect: 'changed', message: `The field now holds ${shown}.` };
}

/** Where the caret is in a field: its offset in the field's text, and the text's length. */
async function caretIn(
  field: LiveElement,
  timeout: number,
): Promise<{ at: number; length: number } | undefined> {
  return field.locator
    .evaluate(
      (element) => {
        if (element.tagName === 'INPUT' || element.tagName === 'TEXTAREA') {
          const box = element as HTMLInputElement;
          return { at: box.selectionEnd ?? 0, length: box.value.length };
        }
        const selection = element.ownerDocument.getSelection();
        if (!selection?.focusNode || !element.contains(selection.focusNode)) return undefined;
        const range = element.ownerDocument.createRange();
        range.selectNodeContents(element);
        range.setEnd(selection.focusNode, selection.focusOffset);
        return { at: range.toString().length, length: (element.textContent ?? '').length };
      },
      undefined,
      { timeout },
    )
    .catch(() => undefined);
}

/**
 * A caret key (End, Control+End, ...) pressed in a field: it moves the caret and changes
 * nothing on the page, so it is judged by where the caret went, not by the page changing.
 */
export async function pressCaretKey(
  env: ActEnvironment,
  field: LiveElement,
  key: string,
): Promise<Partial<StepResult>> {
  const before = await caretIn(field, 1_000);
  await field.locator.press(key, { timeout: Math.max(500, env.deadline - Date.now()) });
  const after = await caretIn(field, readMs(env));
  if (!after) {
    return {
      effect: 'unexpected',
      code: 'UNEXPECTED_STATE',
      message: `${key} was pressed, but the caret is no longer in the field.`,
      hint: 'Observe the page; the key may have moved the focus.',
    };
  }
  const where =
    after.at >= after.length
      ? 'at the end of the field'
      : after.at === 0
        ? 'at the start of the field'
        : `at character ${after.at} of ${after.length}`;
  const moved = before === undefined || before.at !== after.at;
  return {
    effect: moved ? 'changed' : 'no_change',
    message: `The caret is ${where}${moved ? '' : ', where it was'}. Type with "clear": false to type there.`,
  };
}
