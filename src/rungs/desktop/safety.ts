import { type Classification, classifyActivation, type ElementFacts } from '../ui/safety.js';
import type { DesktopAction } from './actions.js';
import type { Control } from './tree.js';

export type { Classification, Risk } from '../ui/safety.js';

/** AT-SPI roles as the UI rung's classifier knows them. */
const ROLE_AS_UI: Record<string, string> = {
  'push button': 'button',
  'toggle button': 'button',
  'menu item': 'menuitem',
  'check menu item': 'menuitem',
  'radio menu item': 'menuitem',
  'check box': 'checkbox',
  'radio button': 'radio',
  text: 'textbox',
  entry: 'textbox',
  'password text': 'textbox',
  link: 'link',
};

function factsOf(control: Control): ElementFacts {
  // The id is part of what the control says it is ("Delete all files deleteAllButton").
  const name = control.id ? `${control.name} ${control.id}` : control.name;
  return {
    role: ROLE_AS_UI[control.role] ?? control.role,
    name,
    password: control.role === 'password text',
  };
}

/** Key combinations that act on the machine or the session, never on one program. */
function systemKey(keys: readonly string[]): string | undefined {
  const set = new Set(keys.map((key) => key.toLowerCase()));
  const has = (...names: string[]) => names.some((name) => set.has(name));
  if (has('super', 'meta', 'win')) return 'the super key belongs to the desktop shell';
  if (has('ctrl', 'control') && has('alt')) {
    if (has('delete', 'del', 'backspace')) return 'ctrl+alt+delete and ctrl+alt+backspace act on the machine';
    if (keys.some((key) => /^f\d+$/i.test(key))) return 'ctrl+alt+F switches the console';
  }
  if (has('alt') && has('tab')) return 'alt+tab switches windows outside the program';
  return undefined;
}

export interface DesktopSafetyContext {
  /** The control that has the keyboard focus, if any. */
  focused?: Control | undefined;
  /** True when no program window has the keyboard (keys would go to the root window). */
  rootFocused?: boolean;
  /** For a shortcut: its name in the program's words, and its keys. */
  shortcutName?: string;
  shortcutKeys?: readonly string[];
}

/**
 * Rates a desktop action from its control's role, name and id and from the key combination,
 * through the UI rung's classifier; whatever any window says about it. Text on screen is
 * never an input here, so an instruction planted in a label cannot lower a rating.
 */
export function classifyDesktopAction(
  action: DesktopAction,
  control: Control | undefined,
  context: DesktopSafetyContext = {},
): Classification {
  switch (action.op) {
    case 'invoke':
      return classifyActivation(control && factsOf(control));
    case 'toggle':
      return control && /^(check box|radio button|toggle button|switch|check menu item)$/.test(control.role)
        ? { risk: 'low', reason: `a ${control.role} that toggles` }
        : classifyActivation(control && factsOf(control));
    case 'set_value':
    case 'type': {
      const field = control ?? context.focused;
      if (field?.role === 'password text') {
        return { risk: 'block', reason: 'typing into a password field is never done for a model' };
      }
      if (action.op === 'type' && /\n/.test(action.text)) {
        return { risk: 'medium', reason: 'a new line in a field may submit its form' };
      }
      return { risk: 'low', reason: 'edits a field; nothing is sent until the program is told to' };
    }
    case 'key':
    case 'shortcut': {
      const keys = action.op === 'key' ? action.keys.split('+') : (context.shortcutKeys ?? []);
      return classifyKeys(keys, context);
    }
  }
}

/** Rates a key combination (a shortcut is rated by its keys and by its name). */
export function classifyKeys(keys: readonly string[], context: DesktopSafetyContext): Classification {
  const shown = keys.join('+');
  const system = systemKey(keys);
  if (system) return { risk: 'block', reason: `system key ${shown} is not allowed: ${system}` };
  const lower = keys.map((key) => key.toLowerCase());
  if (lower.includes('alt') && lower.includes('f4')) {
    return context.rootFocused
      ? { risk: 'block', reason: 'alt+f4 with no program window focused would act on the desktop itself' }
      : { risk: 'medium', reason: 'alt+f4 closes the window and may discard its work' };
  }
  if (context.shortcutName) {
    const byName = classifyActivation({ role: 'menuitem', name: context.shortcutName });
    if (byName.risk === 'high') return byName;
  }
  const last = lower.at(-1) ?? '';
  const onlyKey = lower.length === 1;
  if (onlyKey && (last === 'enter' || last === 'return' || last === 'space') && context.focused) {
    const focused = context.focused;
    if (!/^(text|entry|spin button|combo box)$/.test(focused.role))
      return classifyActivation(factsOf(focused));
    return { risk: 'medium', reason: 'enter in a field may submit what it holds' };
  }
  if (lower.includes('ctrl') && ['q', 'w'].includes(last)) {
    return { risk: 'medium', reason: `${shown} closes the program or its window` };
  }
  return { risk: 'low', reason: 'moves focus or edits within the program' };
}
