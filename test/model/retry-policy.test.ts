import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, delayBefore, isRetryableStatus, retryAfterMs } from '../../src/model/retry.js';

describe('the retry policy', () => {
  it('retries 408, 409, 429 and 5xx only', () => {
    expect([408, 409, 429, 500, 502, 503, 529].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 422].some(isRetryableStatus)).toBe(false);
  });

  it('reads Retry-After as seconds, as an HTTP date, and retry-after-ms', () => {
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(retryAfterMs({ 'Retry-After': '2' }, now)).toBe(2000);
    expect(retryAfterMs({ 'retry-after': 'Mon, 30 Nov 2026 12:00:05 GMT' }, now)).toBe(5000);
    expect(retryAfterMs({ 'retry-after-ms': '150', 'retry-after': '9' }, now)).toBe(150);
    expect(retryAfterMs({}, now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped, and caps what Retry-After may ask', () => {
    const failure = { retryable: true, status: 503, retryAfterMs: undefined, reason: 'HTTP 503' };
    expect(delayBefore(1, failure, DEFAULT_RETRY, () => 0)).toBe(250);
    expect(delayBefore(1, failure, DEFAULT_RETRY, () => 1)).toBe(500);
    expect(delayBefore(3, failure, DEFAULT_RETRY, () => 1)).toBe(2000);
    expect(delayBefore(10, failure, DEFAULT_RETRY, () => 1)).toBe(DEFAULT_RETRY.maxDelayMs);
    expect(delayBefore(1, { ...failure, retryAfterMs: 3_600_000 }, DEFAULT_RETRY)).toBe(
      DEFAULT_RETRY.maxRetryAfterMs,
    );
  });
});
