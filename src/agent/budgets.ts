/** When a run stops: the defaults of a desktop agent run (30 steps, 14 model calls, 180 s). */
export interface Budgets {
  /** Tool calls, each step of a chain counted. */
  steps: number;
  modelCalls: number;
  /** Seconds of work; time spent waiting for a person's reply does not count. */
  seconds: number;
}

export const DEFAULT_BUDGETS: Budgets = { steps: 30, modelCalls: 14, seconds: 180 };

export type BudgetName = 'steps' | 'model calls' | 'seconds';

/** A clock of work time that pauses while the run waits for a person. */
export class WorkClock {
  readonly #started = performance.now();
  #paused = 0;

  /** Milliseconds of work so far. */
  elapsedMs(): number {
    return performance.now() - this.#started - this.#paused;
  }

  async pausedWhile<T>(wait: () => Promise<T>): Promise<T> {
    const from = performance.now();
    try {
      return await wait();
    } finally {
      this.#paused += performance.now() - from;
    }
  }
}
