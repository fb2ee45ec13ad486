import { describe, expect, it } from 'vitest';
import { runWrapped } from '../../../src/rungs/cli/run-wrapped.js';
import { FIXTURES, failure, gone, liveInGroup } from './helpers.js';

describe('the deadline', () => {
  it('further off than a day is BAD_INPUT before anything runs, not an instant timeout', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      for (const deadline of [Date.now() + 1e12, Number.POSITIVE_INFINITY, Number.NaN]) {
        const { error } = await failure(runWrapped({ program: 'true', deadline }));
        expect(error.code).toBe('BAD_INPUT');
        expect(error.outcome).toBe('not_started');
        expect(error.hint).toContain('86400000 ms');
      }
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });

  it('ends sleep 1000 with TIMEOUT within deadline + 1 s and leaves no process of the group', async () => {
    const deadlineMs = 1_500;
    const { error, ms } = await failure(
      runWrapped({ program: 'sleep', args: ['1000'], deadline: Date.now() + deadlineMs }),
    );
    expect(error.code).toBe('TIMEOUT');
    expect(error.outcome).toBe('unknown');
    expect(ms).toBeLessThan(deadlineMs + 1_000);
    expect(liveInGroup(error.details?.pid as number)).toEqual([]);
  });

  it('reports not_started when the effect begins only at a confirmation that never came', async () => {
    const { error } = await failure(
      runWrapped({
        program: 'sleep',
        args: ['1000'],
        deadline: Date.now() + 800,
        effectStarts: 'confirmation',
      }),
    );
    expect(error.code).toBe('TIMEOUT');
    expect(error.outcome).toBe('not_started');
  });

  it('kills a grandchild that left the group and holds stdout, and still returns in time', async () => {
    const deadlineMs = 1_500;
    const { error, ms } = await failure(
      runWrapped({ program: `${FIXTURES}grandchild-holds-stdout.sh`, deadline: Date.now() + deadlineMs }),
    );
    expect(error.code).toBe('TIMEOUT');
    expect(ms).toBeLessThan(deadlineMs + 1_000);
    const grandchild = Number(/grandchild (\d+)/.exec(String(error.details?.stdout_tail))?.[1]);
    expect(grandchild).toBeGreaterThan(0);
    expect(gone(grandchild)).toBe(true);
    expect(liveInGroup(error.details?.pid as number)).toEqual([]);
  });

  it('does not wait for a grandchild holding stdout after the program exited, and kills it', async () => {
    const result = await runWrapped({
      program: `${FIXTURES}grandchild-holds-stdout.sh`,
      args: ['exit'],
      deadline: Date.now() + 20_000,
    });
    expect(result.durationMs).toBeLessThan(5_000);
    expect(result.leftoversKilled).toBe(1);
    const grandchild = Number(/grandchild (\d+)/.exec(result.stdout.text)?.[1]);
    expect(gone(grandchild)).toBe(true);
  });

  it('stops at once when the caller cancels', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const { error, ms } = await failure(
      runWrapped({
        program: 'sleep',
        args: ['1000'],
        deadline: Date.now() + 60_000,
        signal: controller.signal,
      }),
    );
    expect(error.code).toBe('CANCELLED');
    expect(ms).toBeLessThan(2_000);
    expect(liveInGroup(error.details?.pid as number)).toEqual([]);
  });
});
