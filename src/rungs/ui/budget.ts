import { LiftError } from '../../contract/errors.js';
import type { UiPolicy } from './policy.js';

/** A session's use of the policy's budgets: actions attempted, actions rejected, seconds. */
export class SessionBudget {
  readonly #limits: UiPolicy['budgets'];
  readonly #openedAt = Date.now();
  #steps = 0;
  #rejected = 0;

  constructor(limits: UiPolicy['budgets']) {
    this.#limits = limits;
  }

  used(): { steps: number; rejected: number; seconds: number } {
    return { steps: this.#steps, rejected: this.#rejected, seconds: (Date.now() - this.#openedAt) / 1000 };
  }

  /** When the time budget runs out (epoch ms): no action's deadline goes past it. */
  get endsAt(): number {
    return this.#openedAt + this.#limits.seconds * 1000;
  }

  /** The budget that is used up, in words, or undefined while there is room for another action. */
  exhausted(): string | undefined {
    const { steps, rejected, seconds } = this.#limits;
    const used = this.used();
    if (used.steps >= steps) return `${steps} steps`;
    if (used.rejected > rejected) return `${rejected} rejected actions`;
    if (used.seconds >= seconds) return `${seconds} seconds`;
    return undefined;
  }

  /** Counts one action about to run; throws BUDGET_EXHAUSTED when there is no room for it. */
  take(): void {
    const exhausted = this.exhausted();
    if (exhausted) {
      throw new LiftError('BUDGET_EXHAUSTED', `The session used its budget of ${exhausted}.`, {
        outcome: 'not_started',
      });
    }
    this.#steps++;
  }

  reject(): void {
    this.#rejected++;
  }
}
