import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const countWords = (path: string) => ({
  kind: 'answer' as const,
  toolCalls: [{ name: 'count_words', args: { path } }],
});

describe('budgets', () => {
  it('stops when the model-call budget is used up and says so', async () => {
    harness = await startHarness();
    const note = `${harness.home}/package.txt`;
    (await import('node:fs')).writeFileSync(note, 'one two');
    harness.server.enqueue(countWords(note), countWords(note), countWords(note));
    const result = await harness.run('count the words of the note', { budgets: { modelCalls: 2 } });

    expect(result).toMatchObject({ outcome: 'budget', stoppedBy: 'model calls' });
    expect(result.answer).toBe(
      'Stopped: the model calls budget (2 model calls) ran out before the task was done.',
    );
    expect(result.row).toMatchObject({
      modelCalls: 2,
      toolCalls: 2,
      outcome: 'budget',
      stoppedBy: 'model calls',
    });
    expect(harness.server.requests).toHaveLength(2);
  });

  it('stops when the step budget would be passed, before running the step', async () => {
    harness = await startHarness();
    const note = `${harness.home}/note.txt`;
    (await import('node:fs')).writeFileSync(note, 'one two three');
    harness.server.enqueue({
      kind: 'answer',
      toolCalls: [
        { name: 'count_words', args: { path: note } },
        { name: 'count_words', args: { path: note } },
        { name: 'count_words', args: { path: note } },
      ],
    });
    const result = await harness.run('count the words of the note three times', { budgets: { steps: 2 } });

    expect(result).toMatchObject({ outcome: 'budget', stoppedBy: 'steps' });
    expect(result.row.toolCalls).toBe(2);
    expect(result.answer).toContain('the steps budget (2 steps)');
  });

  it('stops when the time budget runs out, cutting the model call in flight', async () => {
    harness = await startHarness();
    harness.server.enqueue({ kind: 'answer', text: 'too late', delayMs: 20_000 });
    const started = performance.now();
    const result = await harness.run('write a note', { budgets: { seconds: 0.5 } });

    expect(result, result.answer).toMatchObject({ outcome: 'budget', stoppedBy: 'seconds' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await harness.server.waitForSettled(0)).aborted).toBe(true);
    expect(result.row.stoppedBy).toBe('seconds');
  });

  it('keeps its time budget when the collector runs while the model call waits', async () => {
    // On Node 20 a timeout signal inside AbortSignal.any is lost to a collection before it fires;
    // a busy machine collects often, and the budget then never cut the call.
    harness = await startHarness();
    harness.server.enqueue({ kind: 'answer', text: 'too late', delayMs: 20_000 });
    const collecting = setInterval(gc, 25);
    const started = performance.now();
    try {
      const result = await harness.run('write a note', { budgets: { seconds: 0.5 } });
      expect(result, result.answer).toMatchObject({ outcome: 'budget', stoppedBy: 'seconds' });
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      clearInterval(collecting);
    }
  });
});
