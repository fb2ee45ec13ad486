/**
 * The one set of timings every page Lift drives uses: the UI tools, discovery, replay and
 * a person's handoff. A caller may override any of them for one harness; nothing else in
 * rungs/ui, discover/ or replay/ writes a number of its own.
 */
export interface UiTimings {
  /** Deadline of one action, verification included. */
  actionTimeoutMs: number;
  /** How long "nothing happened" must hold before an action is judged no_change. */
  quietMs: number;
  /** Deadline of a page load Lift starts itself (the start page, a reload). */
  navigationTimeoutMs: number;
  /** Deadline of each field typed and key pressed while signing in. */
  signInFieldTimeoutMs: number;
  /** Bound of each replay step's wait for its target and its postcondition. */
  replayStepTimeoutMs: number;
  /** How long a person has to finish a handoff. */
  handoffTimeoutMs: number;
  /** Observation cap, in tokens counted as characters / 4. */
  maxTokens: number;
}

export const UI_DEFAULTS: Readonly<UiTimings> = Object.freeze({
  actionTimeoutMs: 10_000,
  quietMs: 800,
  navigationTimeoutMs: 15_000,
  signInFieldTimeoutMs: 5_000,
  replayStepTimeoutMs: 5_000,
  handoffTimeoutMs: 5 * 60_000,
  maxTokens: 2_000,
});

/** The defaults with a caller's overrides; undefined overrides keep the default. */
export function timings(overrides: Partial<UiTimings> = {}): UiTimings {
  const chosen = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return { ...UI_DEFAULTS, ...chosen };
}
