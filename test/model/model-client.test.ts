import { afterEach, describe, expect, it } from 'vitest';
import { LiftError } from '../../src/contract/errors.js';
import { type Harness, startHarness } from '../agent/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const request = { system: 'test', messages: [{ role: 'user' as const, content: 'hi' }], tools: {} };

describe.each(['openai', 'anthropic'] as const)('the model client (%s-shaped server)', (shape) => {
  it('hedges a slow answer: the second request wins, the first is aborted, both are counted', async () => {
    harness = await startHarness({ shape, client: { hedgeMs: 150 } });
    const { server, runtime } = harness;
    server.enqueue(
      { kind: 'answer', text: 'slow answer', delayMs: 20_000 },
      { kind: 'answer', text: 'fast answer' },
    );
    const started = performance.now();
    const result = await harness.run('write a note');

    expect(result.answer).toBe('fast answer');
    expect(performance.now() - started).toBeLessThan(10_000);
    const first = await server.waitForSettled(0);
    expect(first.aborted).toBe(true);
    expect(server.requests[1]?.completed).toBe(true);
    expect(server.requests[1]?.rawBody).toBe(server.requests[0]?.rawBody);
    expect(result.row).toMatchObject({ modelCalls: 1, modelRequests: 2 });
    const events = await runtime.store.runs.events(result.runId);
    expect(events.filter((event) => event.type === 'model-hedged')).toHaveLength(1);
    expect(events.find((event) => event.type === 'model-called')).toMatchObject({
      requests: 2,
      hedged: true,
    });
    expect(harness.lines.some((line) => /-> reply +\(2 requests: hedged\)/.test(line))).toBe(true);
  });

  it('retries a 429 after the Retry-After the server gave', async () => {
    harness = await startHarness({ shape });
    const { server, client } = harness;
    server.enqueue(
      { kind: 'error', status: 429, headers: { 'retry-after': '1' } },
      { kind: 'answer', text: 'ok' },
    );
    const events: unknown[] = [];
    const started = performance.now();
    const answer = await client.call(request, { onEvent: (event) => events.push(event) });

    expect(answer.text).toBe('ok');
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(answer).toMatchObject({ requests: 2, retries: 1 });
    expect(events).toEqual([
      { type: 'model-retried', attempt: 1, reason: 'HTTP 429', status: 429, wait_ms: 1000 },
    ]);
  });
});

describe('the model client retries and deadlines', () => {
  it('retries 408, 409 and 5xx with backoff, but not a 400', async () => {
    harness = await startHarness();
    const { server, client } = harness;
    server.enqueue(
      { kind: 'error', status: 503 },
      { kind: 'error', status: 408 },
      { kind: 'error', status: 409 },
      { kind: 'answer', text: 'third time lucky' },
    );
    const answer = await client.call(request);
    expect(answer).toMatchObject({ text: 'third time lucky', requests: 4, retries: 3 });

    server.enqueue({ kind: 'error', status: 400 });
    const failure = await client.call(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LiftError);
    expect((failure as LiftError).code).toBe('BAD_INPUT');
    expect(server.requests).toHaveLength(5);
  });

  it('retries when the server hangs up without answering', async () => {
    harness = await startHarness();
    harness.server.enqueue({ kind: 'hang-up' }, { kind: 'answer', text: 'back again' });
    const events: Array<{ type: string; reason?: string }> = [];
    const answer = await harness.client.call(request, { onEvent: (event) => events.push(event) });
    expect(answer).toMatchObject({ text: 'back again', requests: 2, retries: 1 });
    expect(events[0]?.reason).toMatch(/^network: /);
  });

  it('gives up after the last attempt with the code of the failure', async () => {
    harness = await startHarness({ client: { retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 20 } } });
    harness.server.enqueue({ kind: 'error', status: 429 }, { kind: 'error', status: 429 });
    const failure = (await harness.client.call(request).catch((error: unknown) => error)) as LiftError;
    expect(failure.code).toBe('RATE_LIMITED');
    expect(failure.message).toContain('after 2 attempts');
  });

  it('cuts a stream that trickles forever at the per-attempt deadline and tries again', async () => {
    harness = await startHarness({ client: { attemptDeadlineMs: 600 } });
    const { server, client } = harness;
    server.enqueue(
      { kind: 'answer', text: 'x', trickle: { everyMs: 50 } },
      { kind: 'answer', text: 'whole answer' },
    );
    const events: Array<{ type: string; reason?: string }> = [];
    const answer = await client.call(request, { onEvent: (event) => events.push(event) });

    expect(answer.text).toBe('whole answer');
    const cut = await server.waitForSettled(0);
    expect(cut.aborted).toBe(true);
    expect(events[0]?.reason).toBe('The model did not finish answering within 600 milliseconds.');
  });

  it('fails with TIMEOUT when every attempt trickles', async () => {
    harness = await startHarness({
      client: { attemptDeadlineMs: 300, retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 20 } },
    });
    const { server, client } = harness;
    server.enqueue(
      { kind: 'answer', trickle: { everyMs: 40 } },
      { kind: 'answer', trickle: { everyMs: 40 } },
    );
    const started = performance.now();
    const failure = (await client.call(request).catch((error: unknown) => error)) as LiftError;
    expect(failure.code).toBe('TIMEOUT');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await server.waitForSettled(1)).aborted).toBe(true);
  });
});
