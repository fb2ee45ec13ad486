/**
 * The longest deadline one call may be given: a day. No operation of a program built for
 * people needs more, and it stays well inside what Node's timers hold (about 24.8 days; a
 * longer delay fires at once with a TimeoutOverflowWarning), so a slip such as `1e9` is
 * refused with a range instead of turning into an instant timeout.
 */
export const MAX_DEADLINE_MS = 24 * 60 * 60 * 1_000;

/** Whether a deadline in milliseconds is one Lift accepts: more than zero, at most a day. */
export function deadlineInRange(ms: number): boolean {
  return Number.isFinite(ms) && ms > 0 && ms <= MAX_DEADLINE_MS;
}
