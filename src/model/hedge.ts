/** How one hedged attempt went: which request answered, and how many went out. */
export interface HedgeOutcome<T> {
  value: T;
  /** 1, or 2 when the backup request went out. */
  requests: number;
  /** Which request's answer was used. */
  winner: 'first' | 'second';
}

/** The abort reason given to the request that lost the race. */
export class HedgeLostError extends Error {
  override readonly name = 'HedgeLostError';
  constructor() {
    super('Another identical request answered first.');
  }
}

/**
 * Sends one request and, when it has not answered after `hedgeMs`, an identical second one. The first
 * answer wins and the other request is aborted. A request that fails leaves the race to the other; when
 * both fail, the first failure is thrown. `onHedge` fires when the backup goes out.
 */
export function hedged<T>(
  send: (signal: AbortSignal) => Promise<T>,
  options: { hedgeMs: number | undefined; signal: AbortSignal; onHedge?: () => void },
): Promise<HedgeOutcome<T>> {
  const { hedgeMs, signal } = options;
  return new Promise((resolve, reject) => {
    const controllers: AbortController[] = [];
    const failures: unknown[] = [];
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const launch = (which: 'first' | 'second') => {
      const controller = new AbortController();
      controllers.push(controller);
      send(AbortSignal.any([signal, controller.signal])).then(
        (value) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          for (const other of controllers) if (other !== controller) other.abort(new HedgeLostError());
          resolve({ value, requests: controllers.length, winner: which });
        },
        (error: unknown) => {
          if (settled) return;
          failures.push(error);
          // Before the backup goes out, a failure ends the attempt at once (the caller may retry);
          // after, the other request still runs, and only both failing ends it.
          if (controllers.length > 1 && failures.length < controllers.length) return;
          settled = true;
          clearTimeout(timer);
          reject(failures[0]);
        },
      );
    };

    launch('first');
    if (hedgeMs !== undefined && hedgeMs > 0) {
      timer = setTimeout(() => {
        if (settled || signal.aborted) return;
        options.onHedge?.();
        launch('second');
      }, hedgeMs);
    }
  });
}
