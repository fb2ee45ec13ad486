import type { Page } from 'playwright-core';
import { type Capability, placeholdersIn, type Step } from '../capability/capability.js';
import { pageFingerprint } from '../capability/fingerprint.js';

/**
 * Whether the page a step runs on was shaped by the call's inputs: the step's own target or
 * postcondition names one, or an earlier step typed one, chose by one or navigated with one.
 * What is missing from such a page may be the record the inputs name, not the screen.
 */
export function shapedByInputs(capability: Capability, index: number): boolean {
  return capability.steps.slice(0, index + 1).some((step, at) => usesInput(step, at === index));
}

function usesInput(step: Step, current: boolean): boolean {
  if (placeholdersIn('target' in step ? step.target : step.op === 'navigate' ? step.path : '').length > 0)
    return true;
  if ('value' in step && !('literal' in step.value)) return true;
  // The step being run expects its postcondition; an earlier one's is behind it.
  return current && placeholdersIn(step.expect).length > 0;
}

/** What a missing target means, once the page is at rest. */
export type Absence =
  /** The page is built as discovery saw it there, and the inputs shaped it: the record is not there. */
  | { kind: 'record'; detail: string }
  /** Another screen. `structural` when no input could explain it (the capability's screen changed). */
  | { kind: 'screen'; structural: boolean };

/**
 * Tells a missing record from a changed screen where a step's target is not on the page: the
 * page's skeleton (roles and names, no data) against the one discovery saw when the step ran
 * (step.onPage). The same skeleton on a page the inputs shaped is a record that is not there;
 * a skeleton that differs where no input shaped the page is a screen that changed.
 */
export async function judgeAbsence(page: Page, capability: Capability, index: number): Promise<Absence> {
  const shaped = shapedByInputs(capability, index);
  const step = capability.steps[index];
  const seen = step?.onPage;
  if (!shaped || seen === undefined) return { kind: 'screen', structural: !shaped };
  const now = await pageFingerprint(page).catch(() => undefined);
  if (now?.complete && now.fingerprint === seen)
    return {
      kind: 'record',
      detail: 'the page is built as discovery saw it, without the record the inputs name',
    };
  return { kind: 'screen', structural: false };
}
