import { LiftError, type Outcome } from '../../contract/errors.js';

/** Waits `ms` milliseconds, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface PollOptions {
  deadline: number;
  signal?: AbortSignal;
  intervalMs?: number;
  /** What the caller was waiting for, for the TIMEOUT message. */
  waitingFor: string;
  outcome: Outcome;
  settle?: string;
}

/**
 * Calls `probe` until it returns a value other than undefined, or the deadline passes
 * (TIMEOUT with the given outcome and settle read). Watched folders have no callback, so
 * the rung polls, the way the system itself does.
 */
export async function pollUntil<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  options: PollOptions,
): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    const wait = Math.min(options.intervalMs ?? 100, options.deadline - Date.now());
    if (wait <= 0) {
      throw new LiftError('TIMEOUT', `Gave up waiting for ${options.waitingFor}.`, {
        outcome: options.outcome,
        ...(options.settle ? { settle: options.settle } : {}),
      });
    }
    await sleep(wait, options.signal);
  }
}
