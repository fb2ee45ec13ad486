import { z } from 'zod';
import { placeholdersIn, type Value } from '../../capability/capability.js';
import { parseTypedValue } from '../../capability/typed.js';
import type { StepResult } from '../../rungs/ui/act.js';
import {
  isCaretKey,
  MAX_ACTIONS_PER_CALL,
  REPLAYABLE_KEYS,
  type UiActionInput,
  UiActionSchema,
} from '../../rungs/ui/actions.js';
import type { Target } from '../../rungs/ui/locator.js';
import type { ActionTrace } from '../action-traces.js';
import type { ExecutedAction } from '../compile.js';
import type { ExplorerContext } from '../explorer-context.js';
import { defineExplorerTool } from './tool.js';

export const ActArgsSchema = z.strictObject({
  actions: z.array(UiActionSchema).min(1).max(MAX_ACTIONS_PER_CALL),
});
export type ActArgs = z.infer<typeof ActArgsSchema>;
type Action = ActArgs['actions'][number];

/** What the compiler keeps of an action, or why it keeps nothing of it. */
type Kept = { executed: ExecutedAction } | { leftOut: string };

/** The executed action as the compiler keeps it, or why it is left out of the capability. */
function recordable(action: Action, result: StepResult, dialogs: string[]): Kept {
  if (result.uncertain) return { leftOut: 'it may have reached the page, but its effect is unknown' };
  if (result.effect === 'unexpected')
    return { leftOut: `it had an unexpected effect (${result.code ?? 'UNEXPECTED_STATE'})` };
  const worked =
    result.effect === 'changed' ||
    result.effect === 'none' ||
    // A value the field already held still matters: replay runs on other inputs, where it differs.
    (result.effect === 'no_change' &&
      (action.op === 'fill' || action.op === 'type' || action.op === 'select' || action.op === 'check')) ||
    // A caret already where the key puts it: on another record's text it is not.
    (result.effect === 'no_change' && action.op === 'press' && isCaretKey(action.key) && !result.code);
  if (!worked) return { leftOut: 'nothing changed on the page' };
  const target: Target | undefined = result.resolved?.target;
  const notUnique = result.resolved?.notUnique ? { notUnique: true as const } : {};
  const on = (executed: ExecutedAction): Kept =>
    target ? { executed: { ...executed, ...notUnique } } : { leftOut: 'it named no element' };
  switch (action.op) {
    case 'click':
      return on({ op: 'click', target: target! });
    case 'fill':
    case 'type':
    case 'select': {
      const value: Value =
        typeof action.value === 'string'
          ? { literal: action.value }
          : 'input' in action.value
            ? { input: action.value.input }
            : // The template as the capability stores it: {{input.NAME}} for each input.
              { template: result.resolved?.template ?? action.value.template };
      if (action.op === 'type' && action.clear === false)
        return on({ op: 'type', target: target!, value, clear: false });
      return on({ op: action.op, target: target!, value });
    }
    case 'check':
      return on({ op: 'check', target: target!, checked: action.checked });
    case 'press':
      return on({ op: 'press', target: target!, key: action.key });
    case 'wait_for':
      return target
        ? on({ op: 'wait_for', target })
        : { leftOut: 'a wait for text is not replayed; wait for an element' };
    case 'read':
      return on({ op: 'read', target: target!, output: action.as });
    case 'navigate':
      if (action.frame && action.frame.length > 0)
        return { leftOut: 'a navigation inside a frame is not replayed' };
      if (!result.resolved?.url) return { leftOut: 'it loaded no page' };
      // Built from inputs: the template is what replays, with each run's inputs.
      return {
        executed: {
          op: 'navigate',
          url: placeholdersIn(action.url).length > 0 ? action.url : result.resolved.url,
        },
      };
    case 'dialog': {
      const message = dialogs.at(-1);
      if (action.response !== 'accept') return { leftOut: 'a dismissed dialog is not replayed' };
      return message
        ? { executed: { op: 'dialog', accepted: true, message } }
        : { leftOut: 'no dialog was open' };
    }
    case 'reload':
      return { leftOut: 'a reload is not replayed' };
  }
}

/** A read must hold a value of its output's type; the value goes to the task, never to the explorer. */
function checkRead(
  context: ExplorerContext,
  action: Action,
  result: StepResult,
  reads: Record<string, string>,
) {
  if (result.status !== 'executed' || action.op !== 'read')
    return { status: result.status, message: result.message, hint: result.hint };
  const spec = context.task.outputs.find((output) => output.name === action.as)!;
  const raw = reads[action.as] ?? '';
  if (parseTypedValue(raw, spec.type) === undefined) {
    return {
      status: 'rejected' as const,
      message: `The read of ${action.as} did not hold a ${spec.type}; nothing was stored.`,
      hint: 'Read the element that shows exactly this value (a table cell by row and column).',
    };
  }
  context.record.outputs.set(action.as, raw);
  return {
    status: result.status,
    message: `Read ${action.as}: a valid ${spec.type}. The value goes to the task, not to you.`,
    hint: result.hint,
  };
}

/** One action's reply (redacted), its run-log event, and what the compiler keeps of it. */
function reply(
  context: ExplorerContext,
  action: Action,
  result: StepResult,
  reads: Record<string, string>,
  dialogs: string[],
  trace: ActionTrace | undefined,
) {
  const { status, message, hint } = checkRead(context, action, result, reads);
  const { record } = context;
  if (result.status === 'executed') record.uiActions++;
  if (status === 'rejected') context.countRejected();
  const number = ++record.actions;
  const kept: Kept =
    status === 'executed'
      ? recordable(action, result, dialogs)
      : { leftOut: `${status}${result.code ? ` (${result.code})` : ''}: ${message}` };
  // A click the classifier reads as irreversible counts as a write even where no request showed it.
  const written = trace && result.risk === 'high' ? { ...trace, wrote: true } : trace;
  const executed =
    'executed' in kept ? { ...kept.executed, ...(written ? { trace: written } : {}) } : undefined;
  if (executed) record.executed.push(executed);
  // A write the page sent counts even when the action is left out: what follows reads its result.
  if (written?.wrote) record.wrote = true;
  else if ('leftOut' in kept) record.leftOut.push({ action: number, op: action.op, reason: kept.leftOut });
  const shared = {
    index: result.index,
    op: result.op,
    status,
    ...(result.effect ? { effect: result.effect } : {}),
    ...(result.code ? { code: result.code } : {}),
  };
  context.emit('action-performed', {
    ...shared,
    ...(result.blockedBy ? { blocked_by: result.blockedBy } : {}),
    ...(result.risk ? { risk: result.risk } : {}),
    compiled: executed !== undefined,
    message,
    ms: result.durationMs,
  });
  return {
    ...shared,
    message,
    ...(hint ? { hint } : {}),
    ...(result.example ? { example: result.example } : {}),
    ...(result.blockedBy ? { blocked_by: result.blockedBy } : {}),
    ...(result.element ? { element: result.element } : {}),
  };
}

export const actTool = defineExplorerTool({
  name: 'act',
  title: 'Act on the page',
  description: [
    'Perform up to 6 typed actions (click, fill, type, select, check, press, navigate, wait_for, read, dialog) on [ref]s or semantic targets. Refer to a bound input as {"input":"NAME"}, never by value.',
    'fill sets a field (a rich-text editor too) at once; type sends the text key by key, for widgets that only react to keys: an autocomplete or token box whose suggestions appear as you type (type, observe the suggestions, click the one to choose; Enter there may submit the whole form).',
    'Inputs and text together are a template, inputs named {{NAME}}, the rest typed as written, line breaks too: {"op":"fill","target":{"ref":"e7"},"value":{"template":"== {{title}} ==\\n\\n{{body}}"}}.',
    'type empties the field first; to add to what it holds, put the caret with a key, then type with "clear": false: {"op":"press","target":{"ref":"e7"},"key":"Control+End"}, {"op":"type","target":{"ref":"e7"},"value":{"template":"\\n{{line}}"},"clear":false}. Keys: Enter, Tab, Escape, ArrowUp, ArrowDown, Space, and the caret keys Home, End, Control+Home, Control+End, ArrowLeft, ArrowRight.',
    'Each element acted on must be one a target names alone: one of several alike (a "Delete" in every row) is refused before anything happens; name it by its row: {"target":{"locator":{"by":"cell","row":"…","column":"…","element":{"role":"button","name":"Delete"}}}}.',
    'A read {"op":"read","target":…,"as":"OUTPUT"} stores the value for the task; you only learn whether it succeeded. A rejected action comes back with the reason and a corrected example; the session goes on.',
  ].join(' '),
  input: ActArgsSchema,
  example: { actions: [{ op: 'fill', target: { ref: 'f1e4' }, value: { input: 'memberId' } }] },
  effect: 'visible',
  idempotent: false,
  async handle(context, args) {
    const outputs = context.task.outputs.map((output) => output.name);
    // Reads into names the task does not return are refused before anything runs.
    const stray = args.actions.find((action) => action.op === 'read' && !outputs.includes(action.as));
    if (stray?.op === 'read') {
      context.emit('action-performed', { op: 'read', status: 'rejected', reason: 'undeclared output' });
      throw context.refuse('BAD_INPUT', `'${stray.as}' is not an output of this task.`, {
        hint: `Read into one of: ${outputs.join(', ')}.`,
        example: { op: 'read', target: stray.target, as: outputs[0] },
      });
    }
    // A key a capability cannot press would be left behind by complete: refused before anything runs.
    const key = args.actions.find(
      (action) => action.op === 'press' && !(REPLAYABLE_KEYS as readonly string[]).includes(action.key),
    );
    if (key?.op === 'press') {
      context.emit('action-performed', { op: 'press', status: 'rejected', reason: 'key not replayable' });
      throw context.refuse('BAD_INPUT', `${key.key} is not a key a capability presses; nothing was done.`, {
        hint: `Press one of: ${REPLAYABLE_KEYS.join(', ')}. To replace a field's text, fill or type it (type empties the field first).`,
        example: { op: 'press', key: 'Control+End', ...(key.target ? { target: key.target } : {}) },
      });
    }
    context.countSteps(args.actions.length - 1);
    const results = await context.ui.act(args.actions as UiActionInput[]);
    const reads = context.ui.reads();
    const dialogs = context.ui.acceptedDialogs();
    const traces = context.ui.traces();
    const replies = results.map((result) =>
      reply(context, args.actions[result.index]!, result, reads, dialogs, traces.get(result.index)),
    );
    const rejected = replies.filter((entry) => entry.status === 'rejected').length;
    return { results: replies, ...(rejected > 0 ? { rejected } : {}) };
  },
});
