import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { TaskLedger } from '../../src/agent/task-ledger.js';
import { type Harness, offeredTools, startHarness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe.each(['openai', 'anthropic'] as const)('a two-call task (%s-shaped server)', (shape) => {
  it('calls one tool, answers, and records model events and a ledger row', async () => {
    harness = await startHarness({ shape });
    const { server, runtime } = harness;
    server.enqueue(
      {
        kind: 'answer',
        toolCalls: [{ name: 'write_note', args: { title: 'Groceries', text: 'milk eggs bread' } }],
        usage: { input: 1384, output: 40 },
      },
      {
        kind: 'answer',
        text: 'Wrote groceries.txt; the read-back check passed.',
        usage: { input: 1731, output: 12 },
      },
    );
    const result = await harness.run('write a note called Groceries with milk eggs bread');

    expect(result.outcome).toBe('answered');
    expect(result.answer).toBe('Wrote groceries.txt; the read-back check passed.');
    const note = result.row.runId && `${runtime.outputDir}/write_note/groceries.txt`;
    expect(existsSync(note)).toBe(true);
    expect(readFileSync(note, 'utf8')).toBe('milk eggs bread');

    // The first request offered the shortlisted tools; the second carried the envelope text back.
    const [first, second] = server.requests;
    const offered = offeredTools(first);
    expect(offered).toContain('write_note');
    expect(offered).toContain('run_chain');
    expect(offered).not.toContain('post_message');
    expect(second!.rawBody).toContain('the file holds the text');

    expect(
      harness.lines.some((line) =>
        /^model +\d+\.\d s +in 1,384 tok +-> write_note\(title="Groceries"/.test(line),
      ),
    ).toBe(true);
    expect(harness.lines.some((line) => /^tool .*<- ok, 1\/1 checks/.test(line))).toBe(true);
    expect(harness.lines.some((line) => /^model .*in 1,731 tok +-> reply/.test(line))).toBe(true);
    expect(harness.lines.at(-1)).toMatch(
      /^total \d+\.\d s, 2 model calls, 1 tool call, 3,115 input tokens, 1\/1 checks$/,
    );

    const row = new TaskLedger(runtime.store.db).list().at(-1)!;
    expect(row).toMatchObject({
      modelCalls: 2,
      modelRequests: 2,
      toolCalls: 1,
      uiActions: 0,
      inputTokens: 3115,
      outputTokens: 52,
      checksPassed: 1,
      checksTotal: 1,
      outcome: 'answered',
    });
    const events = await runtime.store.runs.events(result.runId);
    const modelCalls = events.filter((event) => event.type === 'model-called');
    expect(modelCalls).toHaveLength(2);
    expect(modelCalls[0]).toMatchObject({ provider: shape, input_tokens: 1384, output_tokens: 40 });
    expect((await runtime.store.runs.get(result.runId))?.modelEvents).toBeGreaterThanOrEqual(2);
  });
});
