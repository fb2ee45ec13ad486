import { LiftError } from '../../contract/errors.js';
import type { Target } from './actions.js';
import type { Control } from './tree.js';

/** How a skill names a control: never a path or a position on screen, only what a person reads. */
export interface Locator {
  role: string;
  name: string;
  id?: string | undefined;
  /** Which of the controls with this role, name and id, counting from 0 in window order. */
  nth: number;
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function matches(
  control: Control,
  target: { name?: string | undefined; id?: string | undefined; role?: string | undefined },
): boolean {
  if (target.role && control.role !== target.role) return false;
  if (target.id && control.id !== target.id) return false;
  if (target.name !== undefined && !sameName(control.name, target.name)) return false;
  return target.name !== undefined || target.id !== undefined;
}

/** The locator that finds this very control again in a later read of the same window. */
export function locatorOf(controls: readonly Control[], control: Control): Locator {
  const same = controls.filter(
    (other) => other.role === control.role && other.name === control.name && other.id === control.id,
  );
  return {
    role: control.role,
    name: control.name,
    ...(control.id ? { id: control.id } : {}),
    nth: Math.max(0, same.indexOf(control)),
  };
}

export function findByLocator(controls: readonly Control[], locator: Locator): Control | undefined {
  const same = controls.filter(
    (control) => control.role === locator.role && control.name === locator.name && control.id === locator.id,
  );
  return same[locator.nth];
}

function similar(controls: readonly Control[], name: string | undefined): string {
  const needle = (name ?? '').toLowerCase();
  const near = controls
    .filter((control) => control.interactable && (control.name || control.id))
    .filter((control) => !needle || control.name.toLowerCase().includes(needle.slice(0, 3)))
    .slice(0, 8)
    .map((control) => `${control.role} "${control.name}"${control.id ? ` [${control.id}]` : ''}`);
  return near.length ? `Controls that exist: ${near.join(', ')}.` : 'Observe the window to see its controls.';
}

/**
 * The control a target names in this read: a ref from the latest observation (checked to
 * still be the same node), or role/name/id with `nth` among several. Several matches
 * without `nth` are refused rather than guessed.
 */
export function resolveTarget(
  controls: readonly Control[],
  target: Target,
  refs: ReadonlyMap<string, string>,
): Control {
  if ('ref' in target) {
    const path = refs.get(target.ref);
    const control = path ? controls.find((candidate) => candidate.path === path) : undefined;
    if (!control) {
      throw new LiftError('NOT_FOUND', `No control ${target.ref} in the window now.`, {
        hint: 'Refs come from the latest observe_window; observe again, or name the control by role and name.',
      });
    }
    return control;
  }
  const found = controls.filter((control) => matches(control, target));
  if (found.length === 0) {
    throw new LiftError(
      'NOT_FOUND',
      `No control named ${JSON.stringify(target.name ?? target.id)} in the window.`,
      {
        hint: similar(controls, target.name),
      },
    );
  }
  if (target.nth !== undefined) {
    const chosen = found[target.nth];
    if (!chosen)
      throw new LiftError(
        'NOT_FOUND',
        `Only ${found.length} controls match; nth ${target.nth} is past them.`,
      );
    return chosen;
  }
  const interactable = found.filter((control) => control.interactable);
  if (found.length > 1 && interactable.length !== 1) {
    throw new LiftError(
      'BAD_INPUT',
      `${found.length} controls are named ${JSON.stringify(target.name ?? target.id)}.`,
      {
        hint: `Add "role" or "nth" (0 to ${found.length - 1}), or use the ref from observe_window.`,
      },
    );
  }
  return interactable[0] ?? found[0]!;
}
