import { APICallError } from 'ai';

/** Statuses worth a second attempt: timeouts, conflicts, rate limits and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export interface RetryPolicy {
  /** Attempts in all, the first included. Default 4. */
  maxAttempts: number;
  /** First backoff; doubles per attempt. Default 500 ms. */
  baseDelayMs: number;
  /** Longest backoff, and the longest Retry-After honoured. Default 8 s and 30 s. */
  maxDelayMs: number;
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
};

/** What went wrong with one attempt, as far as retrying is concerned. */
export interface AttemptFailure {
  retryable: boolean;
  status: number | undefined;
  /** Milliseconds the server asked us to wait (Retry-After / retry-after-ms), if it said. */
  retryAfterMs: number | undefined;
  reason: string;
}

/** Reads Retry-After as seconds or an HTTP date, and OpenAI's retry-after-ms. */
export function retryAfterMs(
  headers: Record<string, string> | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  const ms = Number.parseFloat(lower['retry-after-ms'] ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const text = lower['retry-after'];
  if (text === undefined) return undefined;
  const seconds = Number.parseFloat(text);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(text);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** Classifies an error thrown by one attempt. */
export function classifyFailure(error: unknown): AttemptFailure {
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    return {
      retryable: status === undefined ? true : isRetryableStatus(status),
      status,
      retryAfterMs: retryAfterMs(error.responseHeaders),
      reason: status === undefined ? `network: ${error.message}` : `HTTP ${status}`,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  // Connection resets and refused connections surface as plain errors from fetch.
  const network = /fetch failed|ECONNRESET|ECONNREFUSED|socket hang up|terminated|other side closed/i.test(
    message,
  );
  return { retryable: network, status: undefined, retryAfterMs: undefined, reason: message };
}

/**
 * How long to wait before attempt `attempt + 1` (attempt counts from 1): the server's Retry-After when it
 * gave one (capped), otherwise exponential backoff with equal jitter, capped.
 */
export function delayBefore(
  attempt: number,
  failure: AttemptFailure,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, policy.maxRetryAfterMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Sleeps, waking early (and rejecting) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
