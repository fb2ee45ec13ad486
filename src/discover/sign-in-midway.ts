import { LiftError } from '../contract/errors.js';
import { tokenPattern } from '../rungs/ui/redact.js';
import type { StartPage } from './explorer-context.js';
import type { DiscoveryTask, UiDriver } from './types.js';

/**
 * The sign-in page's path as a capability keeps it: without the parameters that hold a
 * bound input (MediaWiki's `returnto=Tools` when the explorer clicked "Log in" on the
 * record's page), which are the run's data and would take every replay to that record.
 */
export function signInPath(at: string, bound: Record<string, string>): string {
  const url = new URL(at, 'http://sign-in.invalid');
  const values = Object.values(bound).filter((value) => value.length > 0);
  for (const [name, value] of [...url.searchParams]) {
    if (values.some((bound) => new RegExp(tokenPattern(bound), 'iu').test(value)))
      url.searchParams.delete(name);
  }
  return `${url.pathname}${url.search}`;
}

/**
 * The application showed its sign-in form in the middle of a session (a "Log in" link on a
 * public page): signs in by the session's own recipe, opens the start page again, signed in,
 * and reads its fingerprint afresh. A replay does the same before its start page, at the
 * path returned in `signInAt`, so the capability starts where this session goes on.
 */
export async function signInMidway(ui: UiDriver, task: DiscoveryTask, start: StartPage): Promise<StartPage> {
  const signedIn = await ui.signIn?.(new URL(task.startUrl).origin);
  if (!signedIn) {
    throw new LiftError(
      'AUTH_REQUIRED',
      'The application shows its sign-in form, and this session has no sign-in.',
      {
        hint: 'Request a handoff, or start the session again with --sign-in FILE (docs/sign-in-recipe.md) or --user USER --secret NAME.',
      },
    );
  }
  await ui.open(task.startUrl);
  const { fingerprint, loadFingerprint } = await ui.fingerprint();
  const { loadFingerprint: _before, ...kept } = start;
  return {
    ...kept,
    fingerprint,
    ...(loadFingerprint ? { loadFingerprint } : {}),
    signInAt: signInPath(signedIn.at, task.bound),
  };
}
