import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunChain } from '../../src/agent/chain.js';
import { type Harness, startHarness } from './harness.js';
import { testTools } from './tools.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const threeSteps = [
  { id: 'note', tool: 'write_note', args: { title: 'Groceries', text: 'milk eggs bread butter' } },
  { id: 'count', tool: 'count_words', args: { path: '$note.fields.path' } },
  { id: 'sum', tool: 'write_summary', args: { note: '$note.files.note', words: '$count.fields.words' } },
];

describe('run_chain', () => {
  it('runs a three-tool chain from one planning call, passing values by reference', async () => {
    harness = await startHarness();
    const { server, runtime } = harness;
    server.enqueue(
      { kind: 'answer', toolCalls: [{ name: 'run_chain', args: { steps: threeSteps } }] },
      { kind: 'answer', text: 'Done: groceries.txt has 4 words.' },
    );
    const result = await harness.run('write a note Groceries, count its words and write a summary');

    expect(result.outcome).toBe('answered');
    expect(result.row).toMatchObject({ modelCalls: 2, toolCalls: 3, checksPassed: 3, checksTotal: 3 });
    const summary = readFileSync(join(runtime.outputDir, 'write_summary', 'summary.txt'), 'utf8');
    expect(summary).toBe('groceries.txt has 4 words');
    // The number reached write_summary as a number, not as text.
    expect(server.requests[1]?.rawBody).toContain('groceries.txt has 4 words');
    for (const id of ['note', 'count', 'sum']) {
      expect(harness.lines.some((line) => new RegExp(`^tool .*<- ${id}: ok`).test(line))).toBe(true);
    }
  });

  it('refuses a bad argument of a later step before the first step runs', async () => {
    harness = await startHarness({ tools: [...testTools, createRunChain()] });
    const { runtime } = harness;
    const envelope = await runtime.invoke('run_chain', {
      steps: [
        { id: 'note', tool: 'write_note', args: { title: 'Groceries', text: 'milk eggs' } },
        { id: 'count', tool: 'count_words', args: { path: 42 } },
      ],
    });
    expect(envelope).toMatchObject({ ok: false, error: { code: 'BAD_INPUT', outcome: 'not_started' } });
    expect(JSON.stringify(envelope)).toContain("Step 'count' gives count_words input it refuses");
    expect(existsSync(join(runtime.outputDir, 'write_note', 'groceries.txt'))).toBe(false);
  });

  it('refuses a bad literal beside a reference before the first step runs, and leaves the referenced one to its step', async () => {
    harness = await startHarness({ tools: [...testTools, createRunChain()] });
    const { runtime } = harness;
    const badLiteral = await runtime.invoke('run_chain', {
      steps: [
        { id: 'note', tool: 'write_note', args: { title: 'Groceries', text: 'milk eggs' } },
        { id: 'sum', tool: 'write_summary', args: { note: '$note.files.note', words: -3 } },
      ],
    });
    expect(badLiteral).toMatchObject({ ok: false, error: { code: 'BAD_INPUT', outcome: 'not_started' } });
    const said = JSON.stringify(badLiteral);
    expect(said).toContain("Step 'sum' gives write_summary input it refuses");
    expect(said).toContain('words');
    expect(said).not.toContain('→ at note');
    expect(existsSync(join(runtime.outputDir, 'write_note', 'groceries.txt'))).toBe(false);

    // A reference's value is known only once its step ran: the chain starts, as before.
    const referenced = await runtime.invoke('run_chain', {
      steps: [
        { id: 'note', tool: 'write_note', args: { title: 'Groceries', text: 'milk eggs' } },
        { id: 'sum', tool: 'write_summary', args: { note: '$note.files.note', words: '$note.fields.bytes' } },
      ],
    });
    expect(referenced).toMatchObject({ ok: true });
  });

  it('stops at the first failed check and names the step', async () => {
    harness = await startHarness();
    const { server, runtime } = harness;
    server.enqueue(
      {
        kind: 'answer',
        toolCalls: [
          {
            name: 'run_chain',
            args: {
              steps: [
                { id: 'total', tool: 'add_numbers', args: { numbers: [2, 2], expected: 5 } },
                { id: 'note', tool: 'write_note', args: { title: 'Total', text: '$total.fields.total' } },
              ],
            },
          },
        ],
      },
      { kind: 'answer', text: 'The total check failed at step total.' },
    );
    const result = await harness.run('add 2 and 2, expect 5, then write a note with the total');

    expect(result.outcome).toBe('answered');
    expect(existsSync(join(runtime.outputDir, 'write_note'))).toBe(false);
    const fed = server.requests[1]!.rawBody;
    expect(fed).toContain("Stopped at step 'total' (add_numbers)");
    expect(fed).toContain('total matches the expected');
    expect(result.row).toMatchObject({ toolCalls: 1, checksPassed: 0, checksTotal: 1 });
    expect(
      harness.lines.some((line) => /<- total: stopped, check failed: total matches the expected/.test(line)),
    ).toBe(true);
  });

  it.each([
    [
      'an unknown step',
      { id: 'count', tool: 'count_words', args: { path: '$nope.fields.path' } },
      "no earlier step is called 'nope'",
    ],
    [
      'an unknown field',
      { id: 'count', tool: 'count_words', args: { path: '$note.fields.file' } },
      "write_note returns no field 'file'",
    ],
    [
      'an unknown tool',
      { id: 'count', tool: 'count_letters', args: {} },
      "'count_letters', which is not a tool",
    ],
  ])('rejects a reference to %s before anything runs', async (_case, badStep, message) => {
    harness = await startHarness();
    const { server, runtime } = harness;
    server.enqueue(
      { kind: 'answer', toolCalls: [{ name: 'run_chain', args: { steps: [threeSteps[0], badStep] } }] },
      { kind: 'answer', text: 'I could not plan that.' },
    );
    const result = await harness.run('write a note and count words');
    expect(result.outcome).toBe('answered');
    expect(existsSync(join(runtime.outputDir, 'write_note'))).toBe(false);
    expect(server.requests[1]!.rawBody).toContain('BAD_INPUT');
    expect(server.requests[1]!.rawBody).toContain(message.replaceAll("'", "'"));
    expect(result.row.toolCalls).toBe(0);
  });

  it('holds an outward step at the gate, reports what ran, and runs it once after a yes', async () => {
    harness = await startHarness();
    const { server, runtime } = harness;
    server.enqueue(
      {
        kind: 'answer',
        toolCalls: [
          {
            name: 'run_chain',
            args: {
              steps: [
                ...threeSteps,
                { id: 'post', tool: 'post_message', args: { channel: '#team', path: '$sum.files.summary' } },
              ],
            },
          },
        ],
      },
      { kind: 'answer', text: 'Posted summary.txt to #team (checked).' },
    );
    // Every tool on offer: a chain may only call tools the model call offered.
    const result = await harness.run(
      'write a note, count its words, summarise, and post the summary to #team',
      {
        replies: ['yes'],
        shortlist: false,
      },
    );

    expect(result.outcome).toBe('answered');
    expect(
      harness.lines.some((line) =>
        line.startsWith('held   post (post_message) for review: Post summary.txt to #team'),
      ),
    ).toBe(true);
    const outbox = readFileSync(join(runtime.outputDir, 'post_message', 'outbox.log'), 'utf8');
    expect(outbox.trim().split('\n')).toHaveLength(1);
    const fed = server.requests[1]!.rawBody;
    expect(fed).toContain("Ran: note, count, sum. Step 'post' is held for a yes");
    expect(fed).toContain("A person said yes and step 'post' ran exactly once");
    expect(result.row).toMatchObject({ modelCalls: 2, toolCalls: 4, checksPassed: 4, checksTotal: 4 });
  });
});
