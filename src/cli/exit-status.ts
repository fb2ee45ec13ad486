import { type Envelope, isPending } from '../contract/envelope.js';

/**
 * The exit status of a call held for a person: not 0 (it did not run, and a script must not go
 * on as if it had), and not 1 either (nothing failed; it waits for a yes). `lift run` says the
 * same of a task left with a held call.
 */
export const EXIT_HELD = 4;

/** 0 when the envelope is ok, 4 when the call is held for a person, 1 otherwise. */
export function exitStatusOf(envelope: Envelope): number {
  if (isPending(envelope)) return EXIT_HELD;
  return envelope.ok ? 0 : 1;
}
