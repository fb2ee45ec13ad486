import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who is told, during a tool's run, that something may now have reached the system. The
 * runtime listens for every tool that is not a read, so a program a write tool starts marks
 * the call started by default: a tool that forgot `ctx.markStarted` used to report
 * `not_started` after a timeout, and a caller who believed it would write twice.
 */
const listeners = new AsyncLocalStorage<() => void>();

/** Runs `work` with `listener` told of every effect that may begin inside it. */
export function withEffectListener<T>(listener: () => void, work: () => T): T {
  return listeners.run(listener, work);
}

/** Says that an effect may have begun in the call running now, if anyone listens. */
export function effectMayHaveBegun(): void {
  listeners.getStore()?.();
}
