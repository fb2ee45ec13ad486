/** A signal that aborts when its time is up or when any signal it follows aborts. */
export interface TimeoutSignal {
  readonly signal: AbortSignal;
  /** Stops the timer once the work it bounds is over. */
  dispose(): void;
}

/**
 * A deadline combined with other signals, without the trap of AbortSignal.any over a timeout
 * signal on Node 20: there the timer holds the timeout signal weakly, and a composite does not
 * keep its sources alive, so a collection before the timer fires loses the timeout and the
 * composite never aborts (nodejs/node#57736). An agent's time budget vanished that way on a
 * busy machine: the model call it should have cut ran to its own deadline. Here the timer
 * holds the controller. `reason` makes the abort reason when the time is up (a TimeoutError,
 * as AbortSignal.timeout gives, unless the caller has its own, as a model attempt does).
 */
export function timeoutSignal(
  ms: number,
  options: { follow?: AbortSignal[]; reason?: () => unknown } = {},
): TimeoutSignal {
  const {
    follow = [],
    reason = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
  } = options;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(reason()), ms);
  // Like AbortSignal.timeout's, this timer alone does not keep the process running.
  timer.unref();
  const signal = follow.length > 0 ? AbortSignal.any([controller.signal, ...follow]) : controller.signal;
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  return { signal, dispose: () => clearTimeout(timer) };
}
