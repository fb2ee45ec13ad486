import { type ErrorCode, isLiftError } from '../../contract/errors.js';
import type { DesktopAction, Expect, Target } from './actions.js';
import type { JournalEntry } from './journal.js';
import { locatorOf, resolveTarget } from './locate.js';
import { type Performed, perform, shortcutNamed, waitForWindow } from './perform.js';
import { classifyDesktopAction, type Risk } from './safety.js';
import type { DesktopSession, WindowRead, WindowRef } from './session.js';
import type { Shortcut } from './shortcuts.js';
import type { Control } from './tree.js';

export interface DesktopStep {
  index: number;
  op: DesktopAction['op'];
  status: 'executed' | 'rejected' | 'skipped';
  /** changed: the window changed (and held); no_change: nothing happened; unexpected: not what was expected. */
  effect?: 'changed' | 'no_change' | 'unexpected';
  code?: ErrorCode;
  message: string;
  hint?: string;
  risk?: Risk;
  control?: { role: string; name: string; id?: string };
  durationMs: number;
}

export interface ActContext {
  session: DesktopSession;
  window: WindowRef;
  shortcuts: readonly Shortcut[];
  /** A person said yes to this very call (act_window_with_approval after its gate). */
  approved: boolean;
  deadline: number;
  /** How long the window must hold still after a change (default 60 ms). */
  quietMs?: number;
}

class Rejection extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint: string,
    readonly risk: Risk,
  ) {
    super(message);
  }
}

/**
 * What the window shows as content: the text of each control that can be read (labels,
 * displays, fields), never a button's name, so that typing 2+2 and expecting "5" does not
 * pass on the calculator's "5" key.
 */
function shownTexts(read: WindowRead): string[] {
  return read.controls
    .filter((control) => control.ops.includes('read'))
    .map((control) => control.text ?? control.name)
    .filter((text) => text.trim() !== '');
}

function targetOf(action: DesktopAction): Target | undefined {
  return 'target' in action ? action.target : undefined;
}

/** Refuses what the classifier blocks, and what is high risk without a person's yes. */
function judge(
  action: DesktopAction,
  control: Control | undefined,
  read: WindowRead,
  context: ActContext,
): Risk {
  const focused = read.controls.find((candidate) => candidate.states.includes('focused'));
  const shortcut = action.op === 'shortcut' ? shortcutNamed(context.shortcuts, action.name) : undefined;
  const { risk, reason } = classifyDesktopAction(action, control, {
    focused,
    ...(shortcut ? { shortcutName: shortcut.name, shortcutKeys: shortcut.keys } : {}),
  });
  if (risk === 'block') {
    throw new Rejection('SAFETY_BLOCKED', `Refused: ${reason}.`, 'Choose another action.', risk);
  }
  if (risk === 'high' && !context.session.attended) {
    throw new Rejection(
      'SAFETY_BLOCKED',
      `Refused in an unattended session: ${reason}.`,
      'High-risk actions need a person present; this session runs unattended. Say what you would do instead.',
      risk,
    );
  }
  if (risk === 'high' && !context.approved) {
    throw new Rejection(
      'SAFETY_BLOCKED',
      `Held back: ${reason}; it needs a person's yes.`,
      'Call act_window_with_approval with the same actions: a person is asked, and it runs only if they approve.',
      risk,
    );
  }
  return risk;
}

async function expectation(
  expect: Expect | undefined,
  control: Control | undefined,
  read: WindowRead,
  context: ActContext,
): Promise<{ control: Control | undefined; text: string } | undefined> {
  if (!expect) return undefined;
  const target = expect.target
    ? resolveTarget(read.controls, expect.target, context.session.refsOf(context.window))
    : control?.ops.includes('read')
      ? control
      : undefined;
  return { control: target, text: expect.text_contains };
}

async function runOne(action: DesktopAction, read: WindowRead, context: ActContext) {
  const { session, window, deadline } = context;
  const target = targetOf(action);
  const control = target ? resolveTarget(read.controls, target, session.refsOf(window)) : undefined;
  const risk = judge(action, control, read, context);
  const expected = await expectation(action.expect, control, read, context);
  const performed: Performed = await perform(action, control, {
    session,
    window,
    deadline,
    shortcuts: context.shortcuts,
  });
  const settled = performed.alreadyThere
    ? { changed: false, settled: true, events: 0, ms: 0 }
    : await waitForWindow(session, window, performed.stamp, {
        quietMs: context.quietMs ?? 60,
        idleMs: 600,
        deadline,
        ...(action.op === 'type' ? { inserts: [...action.text.replace(/\n/g, '')].length } : {}),
        ...(expected?.control ? { expect: { path: expected.control.path, text: expected.text } } : {}),
      });
  const after = await session.read(window, deadline);
  const verdict = cancelNeedsNoChange(action, verify(control, performed, settled, after, expected));
  return { risk, control, verdict, after, expected };
}

/** Escape that changes nothing had nothing to cancel (an empty display, no menu open): not a failure. */
function cancelNeedsNoChange(
  action: DesktopAction,
  verdict: Pick<DesktopStep, 'effect' | 'code' | 'message' | 'hint'>,
): Pick<DesktopStep, 'effect' | 'code' | 'message' | 'hint'> {
  if (action.op !== 'key' || action.keys !== 'escape' || verdict.code !== 'NO_CHANGE') return verdict;
  return { effect: 'no_change', message: 'Nothing to cancel: the window stayed as it was.' };
}

function verify(
  control: Control | undefined,
  performed: Performed,
  settled: { changed: boolean; settled: boolean; expected?: boolean },
  after: WindowRead,
  expected: { control: Control | undefined; text: string } | undefined,
): Pick<DesktopStep, 'effect' | 'code' | 'message' | 'hint'> {
  const now = control && after.controls.find((candidate) => candidate.path === control.path);
  if (expected) {
    // The element the expectation names, else the action's, else the focused one that holds text
    // (where typed keys went): anywhere in the window, a history line or a key's label could match.
    const focused = after.controls.find(
      (candidate) => candidate.states.includes('focused') && candidate.ops.includes('read'),
    );
    const shown = expected.control
      ? [after.controls.find((candidate) => candidate.path === expected.control!.path)?.text ?? '']
      : focused
        ? [focused.text ?? focused.name]
        : shownTexts(after);
    if (shown.some((text) => text.includes(expected.text))) {
      return { effect: 'changed', message: `The window shows "${expected.text}".` };
    }
    return {
      effect: 'unexpected',
      code: 'UNEXPECTED_STATE',
      message: `The window did not come to show "${expected.text}"${expected.control ? ` in ${expected.control.role} "${expected.control.name || expected.control.id}"` : ''}.`,
      hint: 'The action was performed and is not repeated. Observe the window before the next action.',
    };
  }
  if (performed.expectChecked !== undefined && now) {
    const checked = now.states.includes('checked') || now.states.includes('pressed');
    if (checked !== performed.expectChecked) {
      return {
        effect: 'unexpected',
        code: 'UNEXPECTED_STATE',
        message: 'The control did not take the state asked for.',
      };
    }
    if (performed.alreadyThere)
      return { effect: 'no_change', message: `It was already ${checked ? 'on' : 'off'}.` };
    return { effect: 'changed', message: `It is now ${checked ? 'on' : 'off'}.` };
  }
  if (
    performed.expectValue !== undefined &&
    now &&
    (now.text ?? String(now.value ?? '')) !== performed.expectValue
  ) {
    const held = now.text ?? String(now.value ?? '');
    if (!held.includes(performed.expectValue)) {
      return {
        effect: 'unexpected',
        code: 'UNEXPECTED_STATE',
        message: `The field holds "${held.slice(0, 120)}".`,
      };
    }
  }
  if (!settled.changed) {
    return {
      effect: 'no_change',
      code: 'NO_CHANGE',
      message: 'The action was sent, but the window did not change.',
      hint: 'It counts as executed and is not repeated. Observe the window to see what blocks it.',
    };
  }
  return {
    effect: 'changed',
    message: settled.settled
      ? 'The window changed and held still.'
      : 'The window changed and was still changing at the deadline.',
  };
}

function journalEntry(
  action: DesktopAction,
  read: WindowRead,
  control: Control | undefined,
  expected: { control: Control | undefined; text: string } | undefined,
  outcome: { call: number; ok: boolean; changed: boolean; shortcuts: readonly Shortcut[] },
): JournalEntry {
  const { call, ok, changed, shortcuts } = outcome;
  const expectLocator = expected?.control ? locatorOf(read.controls, expected.control) : undefined;
  return {
    call,
    program: read.window.program,
    windowTitle: read.window.title,
    fingerprint: read.fingerprint,
    op: action.op,
    ...(control ? { locator: locatorOf(read.controls, control) } : {}),
    ...(action.op === 'type' ? { text: action.text } : {}),
    ...(action.op === 'set_value' ? { value: action.value } : {}),
    ...(action.op === 'toggle' && action.checked !== undefined ? { checked: action.checked } : {}),
    ...(action.op === 'key' ? { keys: action.keys.split('+') } : {}),
    ...(action.op === 'shortcut' ? { keys: shortcutNamed(shortcuts, action.name).keys } : {}),
    ...(expected
      ? { expect: { ...(expectLocator ? { locator: expectLocator } : {}), textContains: expected.text } }
      : {}),
    ...(expectLocator ? { readLocator: expectLocator } : {}),
    ok,
    changed,
    at: Date.now(),
  };
}

/**
 * Runs up to six actions in order. Each is resolved on a fresh read of the window, judged
 * by the safety classifier, sent, watched until the window changed and held still, and
 * verified (its expectation, else the state it names, else that anything changed). The
 * first refusal or failure stops the rest, which come back as skipped.
 */
export async function actOnWindow(
  actions: readonly DesktopAction[],
  context: ActContext,
): Promise<{ steps: DesktopStep[]; read: WindowRead }> {
  const steps: DesktopStep[] = [];
  const call = ++context.session.calls;
  let read = await context.session.read(context.window, context.deadline);
  for (const [index, action] of actions.entries()) {
    const started = Date.now();
    const step: DesktopStep = { index, op: action.op, status: 'executed', message: '', durationMs: 0 };
    try {
      const result = await runOne(action, read, context);
      Object.assign(step, result.verdict, { risk: result.risk });
      if (result.control) step.control = summary(result.control);
      context.session.journal.push(
        journalEntry(action, read, result.control, result.expected, {
          call,
          ok: step.code === undefined || step.code === 'NO_CHANGE',
          changed: step.effect !== 'no_change',
          shortcuts: context.shortcuts,
        }),
      );
      read = result.after;
    } catch (error) {
      if (!(error instanceof Rejection) && !isLiftError(error)) throw error;
      Object.assign(step, { status: 'rejected', code: error.code, message: error.message });
      if (error.hint) step.hint = error.hint;
      if (error instanceof Rejection) step.risk = error.risk;
      context.session.journal.push({
        call,
        program: read.window.program,
        windowTitle: read.window.title,
        fingerprint: read.fingerprint,
        op: action.op,
        ok: false,
        at: Date.now(),
      });
    }
    step.durationMs = Date.now() - started;
    steps.push(step);
    // Nothing changing is an answer, not a failure: the actions after it still run.
    if (step.code && step.code !== 'NO_CHANGE') break;
  }
  for (let index = steps.length; index < actions.length; index++) {
    steps.push({
      index,
      op: actions[index]!.op,
      status: 'skipped',
      message: 'Not run: an earlier action failed.',
      durationMs: 0,
    });
  }
  return { steps, read };
}

function summary(control: Control): NonNullable<DesktopStep['control']> {
  return { role: control.role, name: control.name, ...(control.id ? { id: control.id } : {}) };
}
