/**
 * A value now or later. The embedded SQLite store answers synchronously (a claim is decided
 * before the call goes on, with no promise in between: docs/decisions/sqlite-wal.md); the
 * shared PostgreSQL store answers with a promise. Callers await every answer.
 */
export type Awaitable<T> = T | Promise<T>;

export function isPromise<T>(value: Awaitable<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Continues with `next` on the value, at once when it is already here: the embedded store's
 * path through invoke stays synchronous, and costs no promise per stage.
 */
export function andThen<T, R>(value: Awaitable<T>, next: (value: T) => Awaitable<R>): Awaitable<R> {
  return isPromise(value) ? value.then(next) : next(value);
}
