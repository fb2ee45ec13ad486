import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import type { ErrorEnvelope, SuccessEnvelope } from '../../src/contract/envelope.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { tempDir } from '../support/temp.js';

/** A tool with a 300 ms deadline that waits `ms` for a person (or, with person false, just waits). */
const personWait = defineTool({
  name: 'person_wait',
  description: 'Waits for a person for the given time, then a little on its own. Tests deadlines.',
  rung: 'ui',
  input: z.strictObject({ ms: z.number().int().min(0).max(5_000), person: z.boolean() }),
  output: z.object({ moved: z.number() }),
  effect: { class: 'read' },
  timeout: { deadlineMs: 300 },
  example: { ms: 10, person: true },
  run: async (input, ctx) => {
    const before = ctx.deadline;
    if (input.person) await ctx.awaitPerson(sleep(input.ms));
    else await sleep(input.ms);
    await sleep(100);
    return { fields: { moved: ctx.deadline - before }, summary: 'waited' };
  },
});

const dir = tempDir('lift-await-person-');
const runtime = new Runtime({ home: dir.path, tools: [personWait] });
afterAll(async () => {
  await runtime.close();
  dir.remove();
});

describe("a call's deadline while a person acts", () => {
  it('does not run while the tool waits for a person, and moves on by the time they took', async () => {
    const envelope = (await runtime.invoke('person_wait', { ms: 900, person: true })) as SuccessEnvelope;
    expect(envelope.ok).toBe(true);
    expect(envelope.fields.moved).toBeGreaterThanOrEqual(850);
  });

  it('still runs out when the tool waits on its own for as long', async () => {
    const envelope = (await runtime.invoke('person_wait', { ms: 900, person: false })) as ErrorEnvelope;
    expect(envelope.error.code).toBe('TIMEOUT');
  });

  it('still ends the call when the caller cancels while the person acts', async () => {
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 150);
    const started = Date.now();
    const envelope = (await runtime.invoke(
      'person_wait',
      { ms: 3_000, person: true },
      { signal: cancel.signal },
    )) as ErrorEnvelope;
    expect(envelope.error.code).toBe('CANCELLED');
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});
