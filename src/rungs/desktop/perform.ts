import { LiftError } from '../../contract/errors.js';
import type { DesktopAction } from './actions.js';
import type { DesktopSession, Stamp, WindowRef } from './session.js';
import type { Shortcut } from './shortcuts.js';
import type { Control } from './tree.js';

/** Names toolkits give the one action that activates a control. */
const ACTIVATE = ['click', 'Click', 'press', 'Press', 'activate', 'Activate', 'toggle', 'Toggle'];

export interface Performed {
  /** Bridge time spent sending the action (not waiting for its effect). */
  sentMs: number;
  /** The state the control should have afterwards, when the op names one. */
  expectChecked?: boolean;
  /** The value a field should hold afterwards. */
  expectValue?: string;
  /** Nothing needed doing (a toggle already in the state asked for). */
  alreadyThere?: boolean;
}

export interface PerformContext {
  session: DesktopSession;
  window: WindowRef;
  deadline: number;
  shortcuts: readonly Shortcut[];
}

/** Sends one action to the program through the bridge; judging its effect is the caller's. */
export async function perform(
  action: DesktopAction,
  control: Control | undefined,
  context: PerformContext,
): Promise<Performed> {
  const { session, window, deadline } = context;
  const started = performance.now();
  const within = () => deadline - Date.now();
  const done = (extra: Omit<Performed, 'sentMs'> = {}): Performed => ({
    sentMs: Math.round((performance.now() - started) * 10) / 10,
    ...extra,
  });
  switch (action.op) {
    case 'invoke':
      await session.request(
        'do_action',
        { app: window.app, path: control!.path, prefer: ACTIVATE },
        within(),
      );
      return done();
    case 'toggle': {
      const now = control!.states.includes('checked') || control!.states.includes('pressed');
      const wanted = action.checked ?? !now;
      if (wanted === now) return done({ alreadyThere: true, expectChecked: wanted });
      await session.request(
        'do_action',
        { app: window.app, path: control!.path, prefer: ACTIVATE },
        within(),
      );
      return done({ expectChecked: wanted });
    }
    case 'set_value': {
      const field = control!;
      if (field.ops.includes('type')) {
        await session.request(
          'set_text',
          { app: window.app, path: field.path, text: String(action.value) },
          within(),
        );
        return done({ expectValue: String(action.value) });
      }
      const number = Number(action.value);
      if (!Number.isFinite(number)) {
        throw new LiftError(
          'BAD_INPUT',
          `${field.role} "${field.name}" takes a number, not ${JSON.stringify(action.value)}.`,
        );
      }
      await session.request('set_value', { app: window.app, path: field.path, value: number }, within());
      return done({ expectValue: String(number) });
    }
    case 'type':
      await session.focus(window, control, deadline);
      await session.request('type', { text: action.text }, within());
      return done();
    case 'key':
      await session.focus(window, undefined, deadline);
      await session.request('key', { keys: action.keys.split('+') }, within());
      return done();
    case 'shortcut': {
      const shortcut = shortcutNamed(context.shortcuts, action.name);
      await session.focus(window, undefined, deadline);
      await session.request('key', { keys: shortcut.keys }, within());
      return done();
    }
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
  ms: number;
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
  options: {
    quietMs: number;
    idleMs: number;
    deadline: number;
    /** Until the node's text contains `text`, or differs `from` what it showed before. */
    expect?: { path: string; text: string } | { path: string; from: string };
  },
): Promise<Settled> {
  const within = Math.max(50, options.deadline - Date.now() - 100);
  return session.request<Settled>(
    'wait',
    {
      app: window.app,
      stamp,
      quiet_ms: options.quietMs,
      idle_ms: options.idleMs,
      within_ms: within,
      ...(options.expect ? { expect: options.expect } : {}),
    },
    within + 50,
  );
}
