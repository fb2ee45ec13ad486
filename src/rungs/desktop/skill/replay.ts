import type { ToolEvent } from '../../../contract/context.js';
import { LiftError } from '../../../contract/errors.js';
import type { DesktopAction } from '../actions.js';
import { findByLocator, type Locator } from '../locate.js';
import { perform, StaleWindow, type WaitOptions } from '../perform.js';
import { classifyDesktopAction } from '../safety.js';
import type { DesktopSession, WindowRead, WindowRef } from '../session.js';
import type { Control } from '../tree.js';
import { bind, type DesktopSkill, type SkillStep } from './format.js';

export interface SkillReplayOptions {
  session: DesktopSession;
  deadline: number;
  emit?: (event: ToolEvent) => void;
  /** How long the window must hold still before the final read (default 20 ms). */
  quietMs?: number;
}

const KEYBOARD = new Set(['key', 'type', 'shortcut']);

interface SettleContext {
  /** The control the step's expectation names, found in the window's read. */
  expectControl: Control | undefined;
  inputs: Readonly<Record<string, unknown>>;
  deadline: number;
  last: boolean;
  quietMs: number | undefined;
}

/**
 * How to wait on the step's AT-SPI events: typed text until the program reported every
 * character, a check until its text shows, the last step until the answer's control shows
 * something new and held still for `quietMs`. The bridge waits in the same round trip as it
 * acts, from the event counts taken just before the action.
 */
function waitFor(
  step: SkillStep,
  action: DesktopAction,
  context: SettleContext,
): WaitOptions & { expectChangeOfRead?: boolean } {
  const { expectControl } = context;
  const watch =
    step.expect && expectControl
      ? { expect: { path: expectControl.path, text: bind(step.expect.text_contains, context.inputs) } }
      : context.last
        ? { expectChangeOfRead: true, poll: true }
        : {};
  return {
    quietMs: context.last ? (context.quietMs ?? 10) : action.op === 'type' ? 0 : 15,
    // A step that changed nothing when it was learned is not waited on for long.
    idleMs: step.changes ? 1_000 : 150,
    deadline: context.deadline,
    ...(action.op === 'type' ? { inserts: [...action.text.replace(/\n/g, '')].length } : {}),
    ...watch,
  };
}

export interface SkillReplayResult {
  output: string;
  steps: number;
  durationMs: number;
}

function surfaceChanged(message: string): never {
  throw new LiftError('SURFACE_CHANGED', message, {
    hint: 'The window no longer looks like the one this skill learned on; the skill did nothing. Do the task with observe_window and act_window, and learn it again.',
    outcome: 'not_started',
  });
}

/** A recorded step as the action act_window would run, inputs bound. */
function actionOf(step: SkillStep, inputs: Readonly<Record<string, unknown>>): DesktopAction {
  const target = { name: '' };
  switch (step.op) {
    case 'invoke':
      return { op: 'invoke', target };
    case 'toggle':
      return { op: 'toggle', target, ...(step.checked !== undefined ? { checked: step.checked } : {}) };
    case 'set_value':
      return { op: 'set_value', target, value: bind(step.value, inputs) };
    case 'type':
      return { op: 'type', text: bind(step.text, inputs), ...(step.target ? { target } : {}) };
    case 'key':
      return { op: 'key', keys: step.keys.join('+') };
  }
}

/** The window to replay on and its read: found and read afresh (a round trip each). */
async function freshWindow(skill: DesktopSkill, session: DesktopSession, deadline: number) {
  let window = await session.knownWindow(skill.program, skill.window, deadline);
  const read = await session.read(window, deadline, { reuse: true }).catch(async (error: unknown) => {
    // The window remembered from an earlier replay is gone: look for it once more.
    if (!(error instanceof LiftError) || error.code !== 'SURFACE_CHANGED') throw error;
    session.forget(window);
    window = await session.knownWindow(skill.program, skill.window, deadline);
    return session.read(window, deadline);
  });
  return { window, read };
}

/**
 * Replays a skill with no model: finds the window, refuses to touch it unless its structure
 * still has the fingerprint the skill learned, then runs each step past the safety classifier
 * and verifies it as act_window would, and reads the answer's control.
 *
 * The window of the last replay is not looked up again: the first step's round trip carries
 * the read it was checked against, and the bridge acts only if the window's structure has not
 * changed since (and it is still shown); else nothing was sent, and the replay starts over on
 * a fresh look and read.
 */
export async function replaySkill(
  skill: DesktopSkill,
  inputs: Readonly<Record<string, unknown>>,
  options: SkillReplayOptions,
): Promise<SkillReplayResult> {
  const started = performance.now();
  const remembered = options.session.remembered(skill.program, skill.window);
  if (remembered) {
    try {
      return await runSteps(skill, inputs, options, { ...remembered, checked: false }, started);
    } catch (error) {
      if (!(error instanceof StaleWindow)) throw error;
    }
  }
  const fresh = await freshWindow(skill, options.session, options.deadline);
  return runSteps(skill, inputs, options, { ...fresh, checked: true }, started);
}

async function runSteps(
  skill: DesktopSkill,
  inputs: Readonly<Record<string, unknown>>,
  options: SkillReplayOptions,
  on: { window: WindowRef; read: WindowRead; checked: boolean },
  started: number,
): Promise<SkillReplayResult> {
  const { session, deadline } = options;
  const { window } = on;
  let { read, checked } = on;
  options.emit?.({
    type: 'skill-window-read',
    fresh: read.fresh && checked,
    ms: Math.round(performance.now() - started),
  });
  // A remembered read that does not fit may be out of date: look again before refusing.
  const unfit = (message: string): never => {
    if (!checked) throw new StaleWindow();
    surfaceChanged(message);
  };
  const find = (locator: Locator, what: string) =>
    findByLocator(read.controls, locator) ??
    unfit(`The ${what} ${locator.role} "${locator.name || locator.id}" is not in the window.`);
  if (read.fingerprint !== skill.fingerprint) {
    unfit(
      `The ${skill.program} window "${skill.window}" has another structure than when the skill was learned.`,
    );
  }
  const finalTarget = find(skill.read.target, 'control to read');
  const shortcuts = session.program(skill.program).shortcutList;
  let keyboardHeld = false;
  let shown: string | undefined;
  // Keys that need no wait of their own ride with the next step's round trip.
  let keysFirst: string[][] = [];
  let sent = false;
  for (const [index, step] of skill.steps.entries()) {
    const control = 'target' in step && step.target ? find(step.target, `step ${index + 1}'s`) : undefined;
    const expectControl = step.expect?.target ? find(step.expect.target, 'checked') : undefined;
    const action = actionOf(step, inputs);
    const { risk, reason } = classifyDesktopAction(action, control);
    if (risk === 'block' || risk === 'high') {
      throw new LiftError('SAFETY_BLOCKED', `Step ${index + 1} refused: ${reason}.`, {
        outcome: sent ? 'unknown' : 'not_started',
      });
    }
    const last = index === skill.steps.length - 1;
    const next = skill.steps[index + 1];
    // Keys reach the program in the order they were sent: a key followed by more keys needs no wait.
    if (
      action.op === 'key' &&
      next !== undefined &&
      KEYBOARD.has(next.op) &&
      !('target' in next && next.target) &&
      !step.expect
    ) {
      keysFirst.push(action.keys.split('+'));
      continue;
    }
    // The last step is done when the answer's control shows something else than before it.
    const performed = await perform(action, control, {
      session,
      window,
      deadline,
      shortcuts,
      keyboardHeld,
      keysFirst,
      ...(checked ? {} : { unlessChanged: read }),
      ...(last ? { readBefore: finalTarget.path } : {}),
      thenWait: waitFor(step, action, { expectControl, inputs, deadline, last, quietMs: options.quietMs }),
    });
    checked = true;
    sent = true;
    if ((KEYBOARD.has(action.op) && !control) || keysFirst.length > 0) keyboardHeld = true;
    keysFirst = [];
    const settled = performed.settled;
    if (!settled) throw new Error('the desktop bridge acted without waiting as asked');
    options.emit?.({ type: 'skill-step-end', index, op: step.op, changed: settled.changed, ms: settled.ms });
    if (step.changes && !settled.changed) {
      throw new LiftError('NO_CHANGE', `Step ${index + 1} (${step.op}) changed nothing in the window.`, {
        outcome: 'unknown',
      });
    }
    if (settled.expected === false && step.expect) {
      throw new LiftError(
        'UNEXPECTED_STATE',
        `After step ${index + 1} the window does not show "${bind(step.expect.text_contains, inputs)}".`,
        {
          outcome: 'unknown',
        },
      );
    }
    if (next && 'target' in next && next.target && settled.events > 0) {
      read = await session.read(window, deadline, { reuse: true });
    }
    if (last && settled.shown !== undefined && settled.expected !== false) shown = settled.shown;
  }
  // The wait already read the answer's control once the window held still; else read it now.
  const output =
    shown ??
    (
      await session.request<string[]>(
        'read',
        { app: window.app, paths: [finalTarget.path] },
        deadline - Date.now(),
      )
    )[0];
  return {
    output: output ?? '',
    steps: skill.steps.length,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
  };
}
