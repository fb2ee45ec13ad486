import { LiftError } from '../../contract/errors.js';
import type { DesktopAction } from './actions.js';
import type { DesktopSession, Stamp, WindowRead, WindowRef } from './session.js';
import type { Shortcut } from './shortcuts.js';
import type { Control } from './tree.js';

/** Names toolkits give the one action that activates a control. */
const ACTIVATE = ['click', 'Click', 'press', 'Press', 'activate', 'Activate', 'toggle', 'Toggle'];

export interface Performed {
  /** The program's event counts just before the action was sent. */
  stamp: Stamp;
  /** The text of `readBefore` just before the action was sent. */
  before?: string;
  /** The state the control should have afterwards, when the op names one. */
  expectChecked?: boolean;
  /** The value a field should hold afterwards. */
  expectValue?: string;
  /** Nothing needed doing (a toggle already in the state asked for). */
  alreadyThere?: boolean;
  /** How the window settled, when the context asked to wait in the same round trip. */
  settled?: Settled;
}

export interface PerformContext {
  session: DesktopSession;
  window: WindowRef;
  deadline: number;
  shortcuts: readonly Shortcut[];
  /** The window already has the keyboard (a replay gives it once, before its first key). */
  keyboardHeld?: boolean;
  /** A node whose text to read just before sending (what the last step of a skill changes). */
  readBefore?: string;
  /**
   * Waits for the window in the same round trip as the action, as waitForWindow would from
   * the stamp taken just before it; `expectChangeOfRead` watches `readBefore` for a change.
   */
  thenWait?: WaitOptions & { expectChangeOfRead?: boolean };
  /** Keys that need no wait of their own, pressed first in the same round trip. */
  keysFirst?: readonly string[][];
  /**
   * Act only if the window is still as this read saw it (same structure, still shown); else
   * nothing is sent and perform throws StaleWindow.
   */
  unlessChanged?: WindowRead;
}

interface Sent {
  stamp: Stamp;
  before?: string;
  settled?: Settled;
  /** The window changed since `unlessChanged`'s read: nothing was done. */
  stale?: boolean;
}

/** The bridge did nothing: the window is no longer as the read given in `unlessChanged` saw it. */
export class StaleWindow extends Error {
  constructor() {
    super('the window changed since it was last read; nothing was sent');
  }
}

/**
 * Sends one action to the program through the bridge, in one round trip with the event
 * stamp taken just before it (and the keyboard given to the window for keys); judging its
 * effect is the caller's.
 */
export async function perform(
  action: DesktopAction,
  control: Control | undefined,
  context: PerformContext,
): Promise<Performed> {
  const { session, window, deadline } = context;
  const keysFirst = context.keysFirst ?? [];
  const { unlessChanged } = context;
  const send = async (op: string, args: Record<string, unknown>, keys = false) => {
    const sent = await session.request<Sent>(
      op,
      {
        ...args,
        stamp_app: window.app,
        ...(unlessChanged
          ? {
              unless_changed: {
                path: unlessChanged.window.path,
                structure: unlessChanged.stamp.structure,
                epoch: unlessChanged.stamp.epoch,
              },
            }
          : {}),
        ...((keys || keysFirst.length > 0) && !context.keyboardHeld
          ? { focus: { pid: window.pid, title: window.title } }
          : {}),
        ...(keysFirst.length > 0 ? { keys_first: keysFirst } : {}),
        ...(context.readBefore ? { read_before: context.readBefore } : {}),
        ...(context.thenWait ? { then_wait: waitArguments(window, context.thenWait) } : {}),
      },
      deadline - Date.now(),
    );
    if (sent.stale) throw new StaleWindow();
    return sent;
  };
  const done = (sent: Sent, extra: Omit<Performed, 'stamp' | 'before'> = {}): Performed => ({
    stamp: sent.stamp,
    ...(sent.before !== undefined ? { before: sent.before } : {}),
    ...(sent.settled !== undefined ? { settled: sent.settled } : {}),
    ...extra,
  });
  switch (action.op) {
    case 'invoke':
      return done(await send('do_action', { app: window.app, path: control!.path, prefer: ACTIVATE }));
    case 'toggle': {
      const now = control!.states.includes('checked') || control!.states.includes('pressed');
      const wanted = action.checked ?? !now;
      if (wanted === now) {
        return done(await send('stamp', { app: window.app }), { alreadyThere: true, expectChecked: wanted });
      }
      return done(await send('do_action', { app: window.app, path: control!.path, prefer: ACTIVATE }), {
        expectChecked: wanted,
      });
    }
    case 'set_value': {
      const field = control!;
      if (field.ops.includes('type')) {
        const sent = await send('set_text', {
          app: window.app,
          path: field.path,
          text: String(action.value),
        });
        return done(sent, { expectValue: String(action.value) });
      }
      const number = Number(action.value);
      if (!Number.isFinite(number)) {
        throw new LiftError(
          'BAD_INPUT',
          `${field.role} "${field.name}" takes a number, not ${JSON.stringify(action.value)}.`,
        );
      }
      return done(await send('set_value', { app: window.app, path: field.path, value: number }), {
        expectValue: String(number),
      });
    }
    case 'type':
      if (control) await session.focus(window, control, deadline);
      return done(await send('type', { text: action.text }, !control));
    case 'key':
      return done(await send('key', { keys: action.keys.split('+') }, true));
    case 'shortcut':
      return done(await send('key', { keys: shortcutNamed(context.shortcuts, action.name).keys }, true));
  }
}

export function shortcutNamed(shortcuts: readonly Shortcut[], name: string): Shortcut {
  const shortcut = shortcuts.find((known) => known.name === name.toLowerCase().trim());
  if (!shortcut) {
    throw new LiftError('NOT_FOUND', `The program ships no shortcut named "${name}".`, {
      hint: shortcuts.length
        ? `Its shortcuts: ${shortcuts.map((known) => known.name).join(', ')}.`
        : 'This program ships no shortcuts file; use {"op": "key", "keys": "..."}.',
    });
  }
  return shortcut;
}

export interface Settled {
  changed: boolean;
  settled: boolean;
  events: number;
  expected?: boolean;
  /** The watched node's text when the wait ended (only when something was watched). */
  shown?: string;
  ms: number;
}

export interface WaitOptions {
  quietMs: number;
  idleMs: number;
  deadline: number;
  /** Text insertions the program must report first (one per typed character). */
  inserts?: number;
  /** Until the node's text contains `text`, or differs `from` what it showed before. */
  expect?: { path: string; text: string } | { path: string; from: string };
  /**
   * Keep a read of the node to change on its way (`from` only): the program answers it before
   * it redraws, so the change is seen tens of ms sooner than its report (GTK 4).
   */
  poll?: boolean;
}

/** The bridge's wait arguments, bounded to leave the answer time to come back. */
function waitArguments(
  window: WindowRef,
  options: WaitOptions & { expectChangeOfRead?: boolean },
): Record<string, unknown> {
  return {
    app: window.app,
    quiet_ms: options.quietMs,
    idle_ms: options.idleMs,
    within_ms: Math.max(50, options.deadline - Date.now() - 100),
    ...(options.inserts ? { inserts: options.inserts } : {}),
    ...(options.expect ? { expect: options.expect } : {}),
    ...(options.expectChangeOfRead ? { expect_change_of_read: true } : {}),
    ...(options.poll ? { poll: true } : {}),
  };
}

/**
 * Watches the program's AT-SPI events until it has changed and then held still for
 * `quietMs` (or, with `expect`, until the named control shows the text), never sleeping a
 * fixed time: `idleMs` without any event means the action changed nothing.
 */
export function waitForWindow(
  session: DesktopSession,
  window: WindowRef,
  stamp: Stamp,
  options: WaitOptions,
): Promise<Settled> {
  const args = waitArguments(window, options);
  return session.request<Settled>('wait', { ...args, stamp }, (args.within_ms as number) + 50);
}
