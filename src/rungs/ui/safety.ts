import type { UiAction } from './actions.js';

export type Risk = 'low' | 'medium' | 'high' | 'block';

export interface ElementFacts {
  role: string;
  name: string;
  /** True for an input of type password. */
  password?: boolean;
}

export interface Classification {
  risk: Risk;
  reason: string;
}

/** Words on a control that usually mean an effect nobody can take back. */
const IRREVERSIBLE =
  /\b(delete|remove|transfer|pay|payment|submit|send|wire|purchase|buy|refund|terminate|destroy|erase|wipe|execute|publish|withdraw)\b/i;
/** Key combinations that act on the browser, not on the page. */
const BROWSER_KEYS =
  /^(?:(?:Control|Meta|ControlOrMeta)\+(?:Shift\+)?(?:w|q|t|n|Tab|PageUp|PageDown)|Alt\+F4|F11|F12)$/i;
const ACTIVATING_KEYS = new Set(['Enter', 'Space', ' ']);
const EDITING_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

/** How risky activating an element is, from its role and name alone (the desktop rung shares it). */
export function classifyActivation(element: ElementFacts | undefined): Classification {
  if (!element) return { risk: 'medium', reason: 'activates an unknown element' };
  const name = element.name.trim();
  if (IRREVERSIBLE.test(name)) {
    return { risk: 'high', reason: `"${name}" reads as an irreversible operation` };
  }
  if (element.role === 'button' || element.role === 'menuitem') {
    return { risk: 'medium', reason: `a ${element.role} may submit a form` };
  }
  return { risk: 'low', reason: `a ${element.role || 'element'} that navigates or toggles` };
}

/**
 * Rates an action from its target's role, name and field type and from the key combination,
 * whatever the model says about it. `signIn` is true only when the session itself types its
 * own credential from the secret store.
 */
export function classifyAction(
  action: UiAction,
  element: ElementFacts | undefined,
  context: { signIn?: boolean } = {},
): Classification {
  switch (action.op) {
    case 'read':
    case 'wait_for':
      return { risk: 'low', reason: 'reads the page' };
    case 'navigate':
    case 'reload':
      return { risk: 'low', reason: 'loads a page the policy allows' };
    case 'dialog':
      return action.response === 'accept'
        ? { risk: 'medium', reason: 'confirms a dialog the page opened' }
        : { risk: 'low', reason: 'dismisses a dialog' };
    case 'fill':
    case 'type':
    case 'select':
    case 'check':
      if (element?.password) {
        return context.signIn
          ? { risk: 'medium', reason: "the session's own sign-in from the secret store" }
          : { risk: 'block', reason: 'typing into a password field is never done for a model' };
      }
      return { risk: 'low', reason: 'edits a field; nothing is sent until a form is submitted' };
    case 'click':
      return classifyActivation(element);
    case 'press': {
      if (BROWSER_KEYS.test(action.key))
        return { risk: 'block', reason: `${action.key} acts on the browser itself` };
      const key = action.key.split('+').pop() ?? action.key;
      if (ACTIVATING_KEYS.has(key) && element && !EDITING_ROLES.has(element.role))
        return classifyActivation(element);
      if (key === 'Enter') return { risk: 'medium', reason: 'Enter in a field may submit its form' };
      return { risk: 'low', reason: 'moves focus or edits a field' };
    }
  }
}
